package synth

// A plant is a term inserted at a fixed rate, independent of the seed: the
// message with global index g (0-based, in emission order) carries the term
// when g%Period == Offset. Benchmarks can therefore rely on the term existing
// and on roughly how many rows match it.
type plant struct {
	Term   string
	Period int
	Offset int
	// Sentences carry the term in context; one is chosen per occurrence.
	Sentences []string
}

// plants are the planted benchmark terms. Offsets are small and distinct so
// that every term occurs even in tiny corpora (any corpus with more messages
// than the largest offset, 101).
var plants = []plant{
	{Term: "zenkowitz", Period: 25_000, Offset: 11, Sentences: []string{
		"The zenkowitz flag from the old rollout is still enabled on two hosts.",
		"Could the zenkowitz migration be what changed this?",
		"I grepped for zenkowitz and found a leftover reference in the deploy script.",
	}},
	{Term: "brontide", Period: 400, Offset: 7, Sentences: []string{
		"This only happens on the brontide cluster.",
		"The brontide sidecar restarts at the same moment.",
		"Ask the brontide team whether they changed the shared config.",
	}},
	{Term: "connection refused", Period: 97, Offset: 5, Sentences: []string{
		"The client log says: dial tcp 127.0.0.1:5432: connect: connection refused.",
		"curl: (7) Failed to connect to localhost port 8080: connection refused",
		"Every retry ends with connection refused after about 3 seconds.",
	}},
	{Term: "docker network", Period: 211, Offset: 13, Sentences: []string{
		"Running docker network inspect shows both containers on the default bridge.",
		"I created a user-defined docker network and attached the api container to it.",
	}},
	{Term: "部署", Period: 40, Offset: 3, Sentences: []string{
		"昨天部署之后就开始报错了。",
		"部署脚本在预发环境里是正常的。",
		"先回滚这次部署，再慢慢查。",
	}},
	{Term: "内存泄漏", Period: 250, Offset: 17, Sentences: []string{
		"看监控像是内存泄漏，RSS 一直在涨。",
		"排查了一下，确实是缓存没有释放导致的内存泄漏。",
	}},
	{Term: "修改youer服务端", Period: 1_000, Offset: 29, Sentences: []string{
		"顺便修改youer服务端的超时配置。",
		"需要修改youer服务端的 nginx upstream 设置。",
	}},
	{Term: "鲲鹏", Period: 20_000, Offset: 101, Sentences: []string{
		"这个问题只在鲲鹏 ARM 服务器上出现。",
		"鲲鹏机器上的 Go 交叉编译需要 GOARCH=arm64。",
	}},
}

// BenchQuery is one query of the benchmark mix with the reason it is there.
type BenchQuery struct {
	Kind  string // what the query exercises: rare, mid, common, stopword, prefix, and, or, phrase, cjk2, cjk4, mixed
	Query string // FTS5 query text as a user would type it
	// Period is the planting period for planted terms (about messages/Period
	// rows match), 0 for terms that occur naturally through the templates
	// (present in any corpus of a few hundred messages or more).
	Period int
}

// BenchQueries is the mixed query set of the benchmarks (issue 2 §4). Every
// query matches in any generated corpus of at least 1,000 messages: planted
// terms by construction (see Period), the others because the templates use
// them in every topic.
var BenchQueries = []BenchQuery{
	{Kind: "rare", Query: "zenkowitz", Period: 25_000},
	{Kind: "rare-cjk2", Query: "鲲鹏", Period: 20_000},
	{Kind: "mid", Query: "brontide", Period: 400},
	{Kind: "common", Query: "error"},
	{Kind: "stopword", Query: "the"},
	{Kind: "prefix1", Query: "d*"},
	{Kind: "prefix2", Query: "co*"},
	{Kind: "and", Query: "docker network", Period: 211},
	{Kind: "or", Query: "postgres OR redis"},
	{Kind: "phrase", Query: `"connection refused"`, Period: 97},
	{Kind: "cjk2", Query: "部署", Period: 40},
	{Kind: "cjk4", Query: "内存泄漏", Period: 250},
	{Kind: "mixed", Query: "修改youer服务端", Period: 1_000},
	{Kind: "mixed-part", Query: "youer", Period: 1_000},
}

// PlantedCount returns how many of the first `messages` messages carry the
// planted term, or -1 when term is not planted. Other messages may contain
// the term too (the templates use some of them), so this is a lower bound on
// the number of matching rows.
func PlantedCount(term string, messages int) int {
	for _, p := range plants {
		if p.Term == term {
			if messages <= p.Offset {
				return 0
			}
			return (messages-1-p.Offset)/p.Period + 1
		}
	}
	return -1
}
