package synth

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
)

// vocabSeed fixes the vocabulary itself: only the sampling depends on the
// user's seed, so the same words exist in every corpus and benchmark terms
// can be named ahead of time.
const vocabSeed = 0x7265_6361_6c6c // "recall"

// pseudoWords is how many invented identifiers the vocabulary holds. Real
// codebases are full of project-specific names (modules, services, hosts) that
// occur nowhere else; these stand in for them and give the long Zipf tail.
const pseudoWords = 4000

// zipfExponent shapes the rank-frequency curve; about 1 is what natural text
// and identifier usage show.
const zipfExponent = 1.05

// techWords are real words that developers type, most frequent first. The
// first block takes the top Zipf ranks; the rest are spread through the tail
// so that some real words are rare too.
var techWords = strings.Fields(`
error config server build test file service request docker deploy database
container image network port connection timeout user api client cache log
module package version release branch commit query index table schema token
session worker queue job node cluster pod volume secret proxy upstream route
handler middleware auth permission certificate key bucket storage backup replica
migration transaction lock thread memory cpu disk latency metric alert trace
debug warning panic exception stack heap goroutine channel context struct
interface function method import export variable environment path directory
script command shell terminal output input stream buffer socket header payload
response status retry backoff limit quota rate throttle health probe readiness
liveness restart crash signal process daemon systemd journal cron schedule
pipeline workflow runner artifact registry tag manifest chart helm namespace
ingress gateway dns resolver hostname subnet bridge overlay firewall iptables
nginx postgres redis kafka rabbitmq sqlite mysql mongo elasticsearch grafana
prometheus loki jaeger sentry webpack vite eslint prettier jest pytest mypy
ruff poetry pip venv conda cargo rustc clippy gofmt govet gopls cgo linker
compiler typescript javascript python golang rust java kotlin swift bash zsh
fish tmux vim neovim emacs vscode git github gitlab rebase merge conflict
cherry stash bisect reflog submodule hook lint format coverage benchmark
profile flamegraph pprof allocation leak gc pause tls ssl openssl letsencrypt
certbot acme renewal expiry csr chain cors csrf jwt oauth oidc saml ldap
webhook websocket grpc protobuf graphql rest json yaml toml csv parquet
serializer parser lexer tokenizer encoder decoder codec compression zstd gzip
snapshot restore vacuum analyze explain planner partition shard failover
sentinel quorum raft leader follower election heartbeat lease watchdog
fixture mock stub snapshot golden flaky regression bisect hotfix rollback canary
bluegreen feature flag experiment rollout terraform ansible pulumi packer vagrant
kubectl kubelet kustomize argocd flux istio envoy linkerd consul vault nomad
`)

// syllables build the pseudo-words: pronounceable, identifier-like, and
// unlike any English word often enough that each one is its own term.
var (
	onsets = strings.Fields("b br c ch d dr f g gr h j k kl l m n p pr qu r s st sh t tr v w x z zh")
	nuclei = strings.Fields("a e i o u ai ei ou y")
	codas  = []string{"", "", "", "n", "r", "l", "x", "s", "m", "k", "t", "nd", "rt"}
)

// vocabulary is the ranked word list and its cumulative Zipf weights.
type vocabulary struct {
	words []string  // rank order: words[0] is the most frequent
	cdf   []float64 // cdf[i] = sum of weights of ranks 0..i, last = 1
}

var (
	vocabOnce sync.Once
	vocab     *vocabulary
)

// getVocab builds the shared vocabulary once; it is read-only afterwards and
// safe for concurrent generators.
func getVocab() *vocabulary {
	vocabOnce.Do(func() { vocab = buildVocab() })
	return vocab
}

func buildVocab() *vocabulary {
	r := rand.New(rand.NewPCG(vocabSeed, vocabSeed>>7))
	reserved := map[string]bool{}
	tech := make([]string, 0, len(techWords))
	for _, w := range techWords {
		if !reserved[w] {
			reserved[w] = true
			tech = append(tech, w)
		}
	}
	for _, p := range plants {
		for _, w := range strings.Fields(p.Term) {
			reserved[strings.ToLower(w)] = true
		}
	}
	seen := map[string]bool{}
	pseudo := make([]string, 0, pseudoWords)
	var b strings.Builder
	for len(pseudo) < pseudoWords {
		b.Reset()
		n := 2 + r.IntN(2)
		for i := 0; i < n; i++ {
			b.WriteString(onsets[r.IntN(len(onsets))])
			b.WriteString(nuclei[r.IntN(len(nuclei))])
			if i == n-1 || r.IntN(3) == 0 {
				b.WriteString(codas[r.IntN(len(codas))])
			}
		}
		w := b.String()
		if len(w) < 5 || len(w) > 11 || seen[w] || reserved[w] {
			continue
		}
		seen[w] = true
		pseudo = append(pseudo, w)
	}
	// The first 120 real words own the head of the distribution; the others
	// are interleaved every 16 ranks through the pseudo-word tail.
	const head = 120
	words := make([]string, 0, len(tech)+len(pseudo))
	words = append(words, tech[:head]...)
	rest := tech[head:]
	for i, w := range pseudo {
		if i%16 == 5 && len(rest) > 0 {
			words = append(words, rest[0])
			rest = rest[1:]
		}
		words = append(words, w)
	}
	words = append(words, rest...)
	cdf := make([]float64, len(words))
	total := 0.0
	for i := range words {
		total += 1 / math.Pow(float64(i+1), zipfExponent)
		cdf[i] = total
	}
	for i := range cdf {
		cdf[i] /= total
	}
	return &vocabulary{words: words, cdf: cdf}
}

// sample draws one word by Zipf rank.
func (v *vocabulary) sample(r *rand.Rand) string {
	u := r.Float64()
	i := sort.SearchFloat64s(v.cdf, u)
	if i >= len(v.words) {
		i = len(v.words) - 1
	}
	return v.words[i]
}

// Rank returns the Zipf rank (0 = most frequent) of word in the synthetic
// vocabulary, or -1 when the generator never draws it from the vocabulary.
func Rank(word string) int {
	for i, w := range getVocab().words {
		if w == word {
			return i
		}
	}
	return -1
}

// VocabularySize is the number of distinct words the Zipf sampler draws from.
func VocabularySize() int { return len(getVocab().words) }
