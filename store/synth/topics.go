package synth

// The raw text of the generator. Strings are templates: {slot} names are
// expanded by compose.go ({svc} is the session's service, {id} a Zipf draw
// from the vocabulary, {path} a file path, {port} a port, and so on).

// cmdOut is a shell command an agent runs and what the tool returns.
type cmdOut struct {
	cmd, out string
}

// codeBlock is a fenced snippet an assistant (or a user) pastes.
type codeBlock struct {
	lang, body string
}

// topicText is everything one troubleshooting theme can say.
type topicText struct {
	key      string
	weight   int      // relative frequency of the topic
	labelZh  string   // the theme in Chinese, for the generic Chinese templates
	labelJa  string   // in Japanese
	labelKo  string   // in Korean
	titles   []string // session titles
	asks     []string // first user message, English
	asksZh   []string // first user message, Chinese (with English terms mixed in)
	cmds     []cmdOut // tool calls and their results
	fixes    []string // assistant explanations, English
	fixesZh  []string // assistant explanations, Chinese
	code     []codeBlock
	followUp []string // topic-specific user follow-ups
}

var topicTexts = []topicText{
	{
		key: "docker", weight: 14, labelZh: "Docker 网络", labelJa: "Docker のネットワーク", labelKo: "Docker 네트워크",
		titles: []string{"Docker networking error between {svc} and postgres", "Containers cannot reach each other", "docker compose network_mode for {svc}", "Fix docker DNS resolution in {svc}"},
		asks: []string{
			"My {svc} container can't reach the database container. Both are started with docker run and I get `could not translate host name \"db\" to address: Name or service not known`. It worked yesterday on my laptop.",
			"docker networking error: `Error response from daemon: network {id}_default not found` when I run `docker compose up -d` in {proj}. I already tried docker system prune.",
			"Why does {svc} inside docker get connection refused on localhost:{port}? The service is definitely running on the host.",
			"Containers on the same host time out talking to each other after I upgraded Docker Engine to {ver}. Ping by IP works, by name it does not.",
		},
		asksZh: []string{
			"{svc} 容器连不上数据库容器，报错 `Name or service not known`。两个容器都是用 docker run 启动的，昨天在我电脑上还好好的。",
			"docker compose up 之后容器之间网络不通，`docker network ls` 里能看到 {id}_default，但是 ping 主机名失败。",
			"容器里访问 localhost:{port} 一直 connection refused，宿主机上服务明明在跑，怎么解决？",
		},
		cmds: []cmdOut{
			{"docker ps --format '{{.Names}}\\t{{.Status}}\\t{{.Ports}}'", "{svc}\tUp 3 minutes\t0.0.0.0:{port}->{port}/tcp\npostgres\tUp 3 minutes\t5432/tcp\nredis\tUp 2 hours\t6379/tcp"},
			{"docker network inspect bridge", "[\n    {\n        \"Name\": \"bridge\",\n        \"Driver\": \"bridge\",\n        \"IPAM\": {\"Config\": [{\"Subnet\": \"172.17.0.0/16\", \"Gateway\": \"172.17.0.1\"}]},\n        \"Containers\": {\"{hex}\": {\"Name\": \"{svc}\", \"IPv4Address\": \"172.17.0.3/16\"}}\n    }\n]"},
			{"docker logs --tail 20 {svc}", "{time} INFO starting {svc} on :{port}\n{time} ERROR db: dial tcp: lookup db on 127.0.0.11:53: no such host\n{time} WARN retrying in 2s (attempt {n}/10)"},
			{"docker exec {svc} getent hosts db", "(exit status 2)"},
			{"docker network create {id}-net && docker network connect {id}-net {svc}", "{hex}{hex}{hex}"},
		},
		fixes: []string{
			"The default bridge network has no embedded DNS, so container names do not resolve there. Create a user-defined bridge network and attach both containers to it; Docker's resolver at 127.0.0.11 then answers for `db`. In compose every project already gets one, so the problem is usually a container started outside compose.",
			"`localhost` inside a container is the container itself, not the host. Either use `network_mode: host` for {svc} (Linux only), or reach the host as `host.docker.internal` and add `extra_hosts: [\"host.docker.internal:host-gateway\"]`.",
			"The error means compose is referencing a network that was pruned. Run `docker compose down --remove-orphans` and then `up -d` again so the network is recreated; do not reuse old container IDs.",
		},
		fixesZh: []string{
			"默认的 bridge 网络没有内置 DNS，所以容器名解析不了。创建一个 user-defined bridge 网络，把两个容器都连上去，Docker 的 127.0.0.11 就能解析 `db` 了。",
			"容器里的 localhost 指的是容器自己，不是宿主机。可以给 {svc} 配置 `network_mode: host`，或者用 `host.docker.internal` 访问宿主机。",
		},
		code: []codeBlock{
			{"yaml", "services:\n  {svc}:\n    build: .\n    ports: [\"{port}:{port}\"]\n    networks: [backend]\n    depends_on: [db]\n  db:\n    image: postgres:16\n    networks: [backend]\nnetworks:\n  backend:\n    driver: bridge"},
			{"bash", "docker network create backend\ndocker run -d --name db --network backend postgres:16\ndocker run -d --name {svc} --network backend -p {port}:{port} {id}/{svc}:latest"},
		},
		followUp: []string{"That fixed it, thanks. Should I also put redis on the same network?", "Does network_mode: host work on Docker Desktop for Mac?"},
	},
	{
		key: "postgres", weight: 12, labelZh: "Postgres 连接", labelJa: "Postgres の接続", labelKo: "Postgres 연결",
		titles: []string{"postgres connection refused from {svc}", "Postgres too many connections", "pg_hba.conf rejects {user}", "Slow query on {db}"},
		asks: []string{
			"postgres connection refused: `psql: error: connection to server at \"{host}\" ({ip}), port 5432 failed: Connection refused`. The server is up according to systemctl.",
			"{svc} logs `FATAL: sorry, too many clients already` every morning around 9am. We use pgbouncer in transaction mode.",
			"Getting `FATAL: no pg_hba.conf entry for host \"{ip}\", user \"{user}\", database \"{db}\", SSL off` after moving the database to a new VM.",
			"This query on {db} takes 14 seconds and it used to take 200ms. EXPLAIN shows a seq scan on {id}_events.",
		},
		asksZh: []string{
			"postgres 连接被拒绝：`Connection refused`，端口 5432，服务器上 systemctl 显示是 active 的。",
			"{svc} 每天早上报 `too many clients already`，我们用的是 pgbouncer。怎么排查连接泄漏？",
			"{db} 上这个查询从 200ms 变成了 14 秒，EXPLAIN 显示全表扫描。",
		},
		cmds: []cmdOut{
			{"sudo ss -ltnp | grep 5432", "LISTEN 0      244        127.0.0.1:5432       0.0.0.0:*    users:((\"postgres\",pid={big},fd=6))"},
			{"sudo -u postgres psql -c 'SHOW listen_addresses;'", " listen_addresses \n------------------\n localhost\n(1 row)"},
			{"sudo tail -n 5 /var/log/postgresql/postgresql-16-main.log", "{time} UTC [{big}] FATAL:  no pg_hba.conf entry for host \"{ip}\", user \"{user}\", database \"{db}\", SSL off\n{time} UTC [{big}] LOG:  checkpoint complete: wrote {n} buffers"},
			{"psql {db} -c 'SELECT count(*), state FROM pg_stat_activity GROUP BY state;'", " count |        state        \n-------+---------------------\n   {n} | idle\n    12 | active\n    87 | idle in transaction\n(3 rows)"},
			{"psql {db} -c 'EXPLAIN ANALYZE SELECT * FROM {id}_events WHERE account_id = 42 ORDER BY created_at DESC LIMIT 50;'", "Limit  (cost=0.00..{big}.12 rows=50 width=212) (actual time=14021.3..14021.9 rows=50 loops=1)\n  ->  Seq Scan on {id}_events  (cost=0.00..{big}.00 rows={big} width=212)\n        Filter: (account_id = 42)\nPlanning Time: 0.311 ms\nExecution Time: 14022.410 ms"},
		},
		fixes: []string{
			"Postgres is only listening on 127.0.0.1, so remote clients get connection refused before authentication even starts. Set `listen_addresses = '*'` (or the private IP) in postgresql.conf, add a `hostssl {db} {user} 10.0.0.0/8 scram-sha-256` line to pg_hba.conf and restart, not just reload.",
			"87 sessions are `idle in transaction`: something opens a transaction and never commits. In {svc} that is usually a handler that returns early without `tx.Rollback()`. Set `idle_in_transaction_session_timeout = '60s'` as a safety net and fix the code path.",
			"The planner lost the index because statistics are stale after the bulk import. Run `ANALYZE {id}_events;` and create a composite index `(account_id, created_at DESC)` so the LIMIT can stop early.",
		},
		fixesZh: []string{
			"Postgres 只监听了 127.0.0.1，远程客户端在认证之前就被拒绝了。把 postgresql.conf 里的 `listen_addresses` 改成 `'*'`，在 pg_hba.conf 加一行 scram-sha-256 规则，然后重启数据库。",
			"有 87 个连接处于 `idle in transaction`，说明代码里有事务没有提交也没有回滚。先设置 `idle_in_transaction_session_timeout`，再修复 {svc} 里提前 return 的分支。",
		},
		code: []codeBlock{
			{"sql", "CREATE INDEX CONCURRENTLY {id}_events_account_created\n    ON {id}_events (account_id, created_at DESC);\nANALYZE {id}_events;"},
			{"go", "tx, err := db.BeginTx(ctx, nil)\nif err != nil {\n\treturn fmt.Errorf(\"begin: %w\", err)\n}\ndefer tx.Rollback() // no-op after Commit\n"},
		},
		followUp: []string{"Is scram-sha-256 supported by our old JDBC driver?", "Can I create the index without locking writes?"},
	},
	{
		key: "k8s", weight: 11, labelZh: "Kubernetes 部署", labelJa: "Kubernetes のデプロイ", labelKo: "Kubernetes 배포",
		titles: []string{"kubernetes CrashLoopBackOff in {svc}", "Pod OOMKilled after deploy", "ImagePullBackOff from private registry", "Readiness probe failing for {svc}"},
		asks: []string{
			"kubernetes CrashLoopBackOff: after the last deploy `{pod}` restarts every 30 seconds. `kubectl logs` shows nothing useful.",
			"Pods of {svc} get OOMKilled in production but never in staging. Limits are {mem}. How do I find what's using the memory?",
			"`Failed to pull image \"registry.{id}.io/{svc}:{ver}\": rpc error: code = Unknown desc = failed to authorize: 401 Unauthorized` on the new cluster.",
			"Readiness probe failed: HTTP probe failed with statuscode: 503. The app starts fine locally with the same image.",
		},
		asksZh: []string{
			"kubernetes 里 {svc} 一直 CrashLoopBackOff，kubectl logs 看不到有用的信息，怎么查？",
			"生产环境的 pod 总是被 OOMKilled，limit 是 {mem}，测试环境没问题。",
			"新集群拉镜像失败，`401 Unauthorized`，imagePullSecrets 已经配置了。",
		},
		cmds: []cmdOut{
			{"kubectl get pods -n {id} -o wide", "NAME                     READY   STATUS             RESTARTS      AGE   IP\n{pod}   0/1     CrashLoopBackOff   {n} (21s ago)   44m   10.42.1.{n}\n{id}-redis-0             1/1     Running            0             3d    10.42.0.17"},
			{"kubectl describe pod {pod} -n {id} | tail -n 12", "    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n    Limits:\n      memory:  {mem}\nEvents:\n  Warning  BackOff  2m (x{n} over 44m)  kubelet  Back-off restarting failed container {svc}"},
			{"kubectl logs {pod} -n {id} --previous", "{time} panic: open /etc/{svc}/config.yaml: no such file or directory\n\ngoroutine 1 [running]:\nmain.loadConfig(...)\n\t/src/cmd/{svc}/main.go:{line} +0x1c5"},
			{"kubectl get events -n {id} --sort-by=.lastTimestamp | tail -n 5", "44m  Normal   Scheduled  pod/{pod}  Successfully assigned {id}/{pod} to node-{n}\n2m   Warning  Unhealthy  pod/{pod}  Readiness probe failed: HTTP probe failed with statuscode: 503"},
			{"kubectl rollout undo deployment/{svc} -n {id}", "deployment.apps/{svc} rolled back"},
		},
		fixes: []string{
			"The previous container log has the real cause: the config file is missing because the ConfigMap was renamed in this release but the volume still mounts the old name. Fix the `volumes[].configMap.name` in the deployment and the CrashLoopBackOff stops.",
			"Exit code 137 with reason OOMKilled means the kernel killed the container at the cgroup limit. Go does not see the limit by default: set `GOMEMLIMIT` to about 90% of the limit, and raise the limit if the working set really needs it.",
			"The probe hits `/healthz` before the cache warm-up finishes. Add a `startupProbe` with a longer failureThreshold so the readiness probe only starts after startup.",
		},
		fixesZh: []string{
			"用 `kubectl logs --previous` 看上一次容器的日志才是真正的原因：配置文件不存在，ConfigMap 改名了但 deployment 里还挂载旧名字。",
			"退出码 137 加 OOMKilled 表示容器超过了 cgroup 内存限制被内核杀掉。Go 程序要设置 `GOMEMLIMIT`，否则 GC 不知道限制。",
		},
		code: []codeBlock{
			{"yaml", "startupProbe:\n  httpGet: {path: /healthz, port: {port}}\n  failureThreshold: 30\n  periodSeconds: 2\nresources:\n  limits: {memory: {mem}}\nenv:\n  - name: GOMEMLIMIT\n    value: \"900MiB\""},
		},
		followUp: []string{"How do I make sure this doesn't happen again in CI?", "Should the limit and the request be equal?"},
	},
	{
		key: "gobuild", weight: 9, labelZh: "Go 编译", labelJa: "Go のビルド", labelKo: "Go 빌드",
		titles: []string{"go build cgo error on {id}", "Go cross-compile fails for arm64", "undefined: {id} after go mod tidy", "go test race detector failure"},
		asks: []string{
			"go build cgo error: `# runtime/cgo\ngcc: error: unrecognized command-line option '-m64'` when building for linux/arm64 on my mac.",
			"After `go mod tidy` I get `undefined: {id}.New{id}` in {gofile}, but the function is right there.",
			"CGO_ENABLED=0 go build works but the binary crashes with `sqlite3: unable to open database file: out of memory (14)` in the container.",
			"`go test -race ./...` reports `WARNING: DATA RACE` in {gofile}:{line}. How do I read this trace?",
		},
		asksZh: []string{
			"go build 报 cgo 错误：`gcc: error: unrecognized command-line option '-m64'`，在 mac 上交叉编译 arm64。",
			"`go mod tidy` 之后 {gofile} 里报 `undefined`，函数明明存在。",
		},
		cmds: []cmdOut{
			{"go env CGO_ENABLED GOOS GOARCH CC", "1\nlinux\narm64\ngcc"},
			{"go build -v ./... 2>&1 | tail -n 6", "# github.com/{id}/{svc}/internal/{id}\n{gofile}:{line}:14: undefined: {id}.Client\n{gofile}:{line}:2: cannot use cfg (variable of type *Config) as Options value in argument\nFAIL"},
			{"go version -m ./bin/{svc} | head -n 5", "./bin/{svc}: go1.23.4\n\tpath\tgithub.com/{id}/{svc}\n\tbuild\tCGO_ENABLED=1\n\tbuild\tGOARCH=amd64"},
			{"go test -race -run TestWorker ./internal/{id}/", "==================\nWARNING: DATA RACE\nWrite at 0x00c000124088 by goroutine 9:\n  github.com/{id}/{svc}/internal/{id}.(*Pool).add()\n      {gofile}:{line} +0x64\nPrevious read at 0x00c000124088 by goroutine 8:\n==================\nFAIL"},
		},
		fixes: []string{
			"You are cross-compiling with cgo on, so Go invokes the host gcc, which cannot target arm64. Either build with `CGO_ENABLED=0` (fine if nothing needs cgo), or use a cross toolchain: `CC=aarch64-linux-gnu-gcc` or `zig cc -target aarch64-linux-gnu`.",
			"The package path changed in v2 of the module: the import must end in `/v2`. `go mod tidy` dropped the old requirement and now resolves the v1 API, which has no `Client`.",
			"The race is on `p.items`: `add` writes it while `Len` reads it without the mutex. Take `p.mu` in `Len` too, or use an atomic counter.",
		},
		fixesZh: []string{
			"开启了 cgo 交叉编译，所以调用的是宿主机的 gcc，它不能生成 arm64 代码。用 `CGO_ENABLED=0`，或者指定 `CC=aarch64-linux-gnu-gcc`。",
			"模块升级到了 v2，import 路径必须以 `/v2` 结尾，`go mod tidy` 把旧的依赖删掉了。",
		},
		code: []codeBlock{
			{"bash", "CGO_ENABLED=1 GOOS=linux GOARCH=arm64 \\\n  CC=\"zig cc -target aarch64-linux-gnu\" \\\n  go build -o bin/{svc}-arm64 ./cmd/{svc}"},
			{"go", "func (p *Pool) Len() int {\n\tp.mu.Lock()\n\tdefer p.mu.Unlock()\n\treturn len(p.items)\n}"},
		},
		followUp: []string{"Can I keep cgo off and still use sqlite?", "Will this work in GitHub Actions too?"},
	},
	{
		key: "python", weight: 9, labelZh: "Python 虚拟环境", labelJa: "Python の仮想環境", labelKo: "Python 가상환경",
		titles: []string{"python venv uses the wrong interpreter", "ModuleNotFoundError in {svc}", "pip install fails building wheel", "pytest fixture not found"},
		asks: []string{
			"python venv: I activated .venv but `python -c 'import {id}'` still says `ModuleNotFoundError: No module named '{id}'`, and pip says it is installed.",
			"pip install fails with `error: subprocess-exited-with-error ... Failed building wheel for psycopg2`. Python {ver} on Ubuntu.",
			"pytest can't find my fixture: `fixture '{id}_client' not found`. It's defined in tests/conftest.py.",
			"After upgrading to Python 3.12 I get `AttributeError: module 'pkgutil' has no attribute 'ImpImporter'` from pip itself.",
		},
		asksZh: []string{
			"激活了 .venv 之后 import {id} 还是 `ModuleNotFoundError`，pip list 里明明有。",
			"pip 安装 psycopg2 报错 `Failed building wheel`，系统是 Ubuntu。",
		},
		cmds: []cmdOut{
			{"which -a python python3 pip", "/home/{user}/{proj}/.venv/bin/python\n/usr/bin/python3\n/usr/local/bin/pip"},
			{"python -m pip --version", "pip 24.0 from /home/{user}/{proj}/.venv/lib/python3.12/site-packages/pip (python 3.12)"},
			{"python -m pytest tests/test_{id}.py -x -q", "E       fixture '{id}_client' not found\n>       available fixtures: cache, capfd, capsys, monkeypatch, tmp_path\n1 error in 0.{n}s"},
			{"pip install psycopg2 2>&1 | tail -n 4", "      Error: pg_config executable not found.\n      \n      error: subprocess-exited-with-error\n  ERROR: Failed building wheel for psycopg2"},
		},
		fixes: []string{
			"`pip` on your PATH is /usr/local/bin/pip, not the venv's, so packages went to the system site-packages. Always use `python -m pip install ...` inside the venv; it installs for exactly the interpreter you run.",
			"psycopg2 builds from source and needs `libpq-dev` and `pg_config`. Install `libpq-dev python3-dev` with apt, or use `psycopg[binary]` (psycopg 3) which ships wheels.",
			"conftest.py is only collected for tests in its directory or below; your test lives in `{id}/tests/` while the fixture is in `tests/`. Move the fixture up to the rootdir conftest.",
		},
		fixesZh: []string{
			"PATH 里的 pip 是系统的 /usr/local/bin/pip，不是 venv 里的，所以包装到了系统目录。在虚拟环境里统一用 `python -m pip install`。",
		},
		code: []codeBlock{
			{"bash", "python3 -m venv .venv\nsource .venv/bin/activate\npython -m pip install -U pip\npython -m pip install -r requirements.txt"},
			{"python", "import pytest\n\n@pytest.fixture\ndef {id}_client(tmp_path):\n    return Client(base_url=\"http://localhost:{port}\", cache_dir=tmp_path)"},
		},
		followUp: []string{"Should I switch to uv for this?", "How do I pin the interpreter version for the team?"},
	},
	{
		key: "ts", weight: 7, labelZh: "TypeScript 构建", labelJa: "TypeScript のビルド", labelKo: "TypeScript 빌드",
		titles: []string{"TypeScript build fails after upgrade", "vite build out of memory", "Cannot find module '@/{id}'", "ESM vs CommonJS import error"},
		asks: []string{
			"`tsc` fails with `error TS2307: Cannot find module '@/{id}/{id}' or its corresponding type declarations.` but vite dev works fine.",
			"vite build crashes: `FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory` in CI.",
			"`SyntaxError: Cannot use import statement outside a module` when running the {svc} script with node {ver}.",
		},
		asksZh: []string{
			"tsc 报 `TS2307: Cannot find module '@/{id}'`，但是 vite dev 正常。",
			"CI 上 vite build 内存溢出 `JavaScript heap out of memory`。",
		},
		cmds: []cmdOut{
			{"npx tsc --noEmit -p tsconfig.json", "src/{id}/index.ts({line},23): error TS2307: Cannot find module '@/{id}/{id}' or its corresponding type declarations.\nFound 1 error in src/{id}/index.ts:{line}"},
			{"cat tsconfig.json", "{\n  \"compilerOptions\": {\n    \"target\": \"ES2022\",\n    \"module\": \"ESNext\",\n    \"moduleResolution\": \"bundler\",\n    \"strict\": true\n  }\n}"},
			{"node --version && npm ls vite", "v{ver}\n{svc}@0.{n}.0 /home/{user}/{proj}\n└── vite@5.4.{n}"},
		},
		fixes: []string{
			"Vite resolves `@/` through its own alias, but tsc knows nothing about it: add `\"baseUrl\": \".\"` and `\"paths\": {\"@/*\": [\"src/*\"]}` to tsconfig.json so both agree.",
			"The default heap of Node in CI is too small for the build. Set `NODE_OPTIONS=--max-old-space-size=4096`, and check for an accidental import of a huge JSON fixture into the bundle.",
			"The file is ESM but package.json has no `\"type\": \"module\"`. Either add it or rename the script to `.mjs`.",
		},
		fixesZh: []string{
			"vite 有自己的 alias，tsc 不知道 `@/` 是什么。在 tsconfig.json 里加上 `baseUrl` 和 `paths`。",
		},
		code: []codeBlock{
			{"json", "{\n  \"compilerOptions\": {\n    \"baseUrl\": \".\",\n    \"paths\": { \"@/*\": [\"src/*\"] }\n  }\n}"},
		},
		followUp: []string{"Does vitest pick up the same paths?"},
	},
	{
		key: "git", weight: 9, labelZh: "Git 冲突", labelJa: "Git のコンフリクト", labelKo: "Git 충돌",
		titles: []string{"git rebase conflict on {branch}", "Recover lost commits with reflog", "git push rejected non-fast-forward", "Undo a bad merge on main"},
		asks: []string{
			"git rebase conflict: I'm rebasing {branch} onto main and every commit conflicts in {path}. Can I resolve it once?",
			"I ran `git reset --hard` and lost two days of commits on {branch}. Is there any way back?",
			"`! [rejected] main -> main (non-fast-forward)` when pushing, but I don't want a merge commit.",
			"Someone merged a broken branch into main. How do I undo the merge without rewriting history?",
		},
		asksZh: []string{
			"git rebase 冲突：把 {branch} rebase 到 main 上，每个 commit 都在 {path} 冲突，能只解决一次吗？",
			"不小心 `git reset --hard` 了，丢了两天的提交，还能找回来吗？",
		},
		cmds: []cmdOut{
			{"git status --short", "UU {path}\nM  {gofile}\n?? notes.txt"},
			{"git log --oneline -5 {branch}", "{hex} fix {id} retry loop\n{hex} add {id} metrics\n{hex} wip\n{hex} refactor {svc} config\n{hex} Merge pull request #{n} from {id}/main"},
			{"git reflog -8", "{hex} HEAD@{0}: reset: moving to origin/main\n{hex} HEAD@{1}: commit: add {id} handler\n{hex} HEAD@{2}: commit: fix tests\n{hex} HEAD@{3}: checkout: moving from main to {branch}"},
			{"git rebase --continue", "[detached HEAD {hex}] refactor {svc} config\nSuccessfully rebased and updated refs/heads/{branch}."},
		},
		fixes: []string{
			"Enable rerere (`git config rerere.enabled true`): git records how you resolved a conflict and replays it for the following commits. Or squash the branch first with `git rebase -i` so there is only one commit to resolve.",
			"Nothing is lost: the reflog still has `HEAD@{1}`. Run `git branch rescue HEAD@{1}` and check the log there before moving {branch} back with `git reset --hard rescue`.",
			"Use `git pull --rebase` (or set `pull.rebase=true`) to replay your commits on top of origin/main, then push. Never force-push main.",
			"`git revert -m 1 <merge-sha>` creates a new commit that undoes the merge while keeping history intact. Remember to revert the revert before merging the fixed branch again.",
		},
		fixesZh: []string{
			"提交并没有丢，reflog 里还有 `HEAD@{1}`。执行 `git branch rescue HEAD@{1}`，确认无误后再把 {branch} 重置过去。",
			"打开 rerere（`git config rerere.enabled true`），git 会记住你怎么解决冲突，后面的 commit 自动复用。",
		},
		code: []codeBlock{
			{"bash", "git config --global rerere.enabled true\ngit fetch origin\ngit rebase origin/main\n# resolve {path}, then\ngit add {path} && git rebase --continue"},
		},
		followUp: []string{"What does rerere store and where?", "Can I do the same for cherry-picks?"},
	},
	{
		key: "nginx", weight: 9, labelZh: "Nginx 反向代理", labelJa: "Nginx のリバースプロキシ", labelKo: "Nginx 리버스 프록시",
		titles: []string{"nginx 502 bad gateway for {svc}", "nginx upstream timed out", "WebSocket through nginx drops", "nginx client_max_body_size"},
		asks: []string{
			"nginx 502 Bad Gateway on https://{id}.example.com after deploying {svc}. The app responds on curl localhost:{port}.",
			"`upstream timed out (110: Connection timed out) while reading response header from upstream` for long export requests.",
			"WebSocket connections through nginx close after exactly 60 seconds.",
			"Uploads over 1MB fail with `413 Request Entity Too Large`.",
		},
		asksZh: []string{
			"部署 {svc} 之后 nginx 返回 502 Bad Gateway，直接 curl localhost:{port} 是正常的。",
			"nginx 报 `upstream timed out`，导出接口比较慢。",
		},
		cmds: []cmdOut{
			{"sudo tail -n 3 /var/log/nginx/error.log", "{date} [error] {big}#{big}: *{big} connect() failed (111: Connection refused) while connecting to upstream, client: {ip}, server: {id}.example.com, upstream: \"http://127.0.0.1:{port}/\"\n{date} [error] {big}#{big}: *{big} upstream timed out (110: Connection timed out) while reading response header from upstream"},
			{"sudo nginx -t", "nginx: the configuration file /etc/nginx/nginx.conf syntax is ok\nnginx: configuration file /etc/nginx/nginx.conf test is successful"},
			{"curl -sI http://127.0.0.1:{port}/healthz", "HTTP/1.1 200 OK\nContent-Type: application/json\nDate: Tue, 14 May 2026 {time} GMT"},
			{"sudo ss -ltnp | grep {port}", "LISTEN 0 4096 [::1]:{port} [::]:* users:((\"{svc}\",pid={big},fd=7))"},
		},
		fixes: []string{
			"The app listens on `[::1]:{port}` (IPv6 loopback only) while nginx proxies to `127.0.0.1:{port}`, hence connect() failed (111) and the 502. Bind the app to `127.0.0.1` or point `proxy_pass` at `http://[::1]:{port}`.",
			"Raise `proxy_read_timeout 300s;` for the export location only, and better make the export asynchronous so no request waits minutes.",
			"WebSockets need `proxy_http_version 1.1`, the `Upgrade`/`Connection` headers, and a `proxy_read_timeout` longer than your ping interval; nginx closes idle upstream reads after 60s by default.",
		},
		fixesZh: []string{
			"应用只监听了 IPv6 的 `[::1]:{port}`，而 nginx 代理到 `127.0.0.1:{port}`，所以 connect() failed (111) 然后返回 502。",
		},
		code: []codeBlock{
			{"nginx", "location /ws/ {\n    proxy_pass http://127.0.0.1:{port};\n    proxy_http_version 1.1;\n    proxy_set_header Upgrade $http_upgrade;\n    proxy_set_header Connection \"upgrade\";\n    proxy_read_timeout 3600s;\n}"},
		},
		followUp: []string{"Do I need to reload or restart nginx for this?"},
	},
	{
		key: "ssl", weight: 6, labelZh: "SSL 证书", labelJa: "SSL 証明書", labelKo: "SSL 인증서",
		titles: []string{"ssl certificate expired on {id}.example.com", "certbot renewal failing", "x509: certificate signed by unknown authority"},
		asks: []string{
			"ssl certificate expired: browsers show NET::ERR_CERT_DATE_INVALID for {id}.example.com. certbot is supposed to renew automatically.",
			"`x509: certificate signed by unknown authority` when {svc} calls the internal API over https.",
			"certbot renew fails: `Timeout during connect (likely firewall problem)` for the http-01 challenge.",
		},
		asksZh: []string{
			"{id}.example.com 的 SSL 证书过期了，certbot 不是应该自动续期吗？",
			"{svc} 调内部接口报 `x509: certificate signed by unknown authority`。",
		},
		cmds: []cmdOut{
			{"echo | openssl s_client -connect {id}.example.com:443 -servername {id}.example.com 2>/dev/null | openssl x509 -noout -dates", "notBefore=Aug 12 03:14:07 2026 GMT\nnotAfter=Nov 10 03:14:06 2026 GMT"},
			{"sudo certbot renew --dry-run", "Processing /etc/letsencrypt/renewal/{id}.example.com.conf\nCertbot failed to authenticate some domains (authenticator: standalone).\n  Domain: {id}.example.com\n  Type:   connection\n  Detail: Timeout during connect (likely firewall problem)"},
			{"systemctl list-timers | grep certbot", "(no output)"},
		},
		fixes: []string{
			"The certificate expired on Nov 10 and no renewal timer exists, so renewal never ran after the server migration. Enable `certbot.timer`, open port 80 for the http-01 challenge (or switch to dns-01), and reload nginx from a deploy hook.",
			"Your container image has no CA bundle for the internal CA. Copy the CA certificate into `/usr/local/share/ca-certificates/` and run `update-ca-certificates`, instead of setting InsecureSkipVerify.",
		},
		fixesZh: []string{
			"证书 11 月 10 日就过期了，服务器迁移后 certbot.timer 没有启用，所以一直没有续期。启用 timer，并确保 80 端口能访问。",
		},
		code: []codeBlock{
			{"bash", "sudo systemctl enable --now certbot.timer\nsudo certbot renew --deploy-hook 'systemctl reload nginx'"},
		},
		followUp: []string{"Can I get an alert before it expires next time?"},
	},
	{
		key: "redis", weight: 7, labelZh: "Redis 集群", labelJa: "Redis クラスタ", labelKo: "Redis 클러스터",
		titles: []string{"Redis cluster setup for {svc}", "Redis MOVED errors", "redis OOM command not allowed"},
		asks: []string{
			"Setting up a Redis cluster with 3 masters and 3 replicas for {svc}; `redis-cli --cluster create` hangs at `Waiting for the cluster to join`.",
			"Clients get `MOVED 12182 {ip}:6379` errors after we switched to cluster mode.",
			"`OOM command not allowed when used memory > 'maxmemory'` on the cache instance.",
		},
		asksZh: []string{
			"部署 Redis 集群，三主三从，`redis-cli --cluster create` 一直卡在 Waiting for the cluster to join。",
			"切换到集群模式之后客户端报 `MOVED` 错误。",
		},
		cmds: []cmdOut{
			{"redis-cli -h {ip} cluster info | head -n 4", "cluster_state:fail\ncluster_slots_assigned:16384\ncluster_slots_ok:10923\ncluster_known_nodes:6"},
			{"redis-cli -h {ip} info memory | grep -E 'used_memory_human|maxmemory_human|maxmemory_policy'", "used_memory_human:{n}.9G\nmaxmemory_human:4.00G\nmaxmemory_policy:noeviction"},
			{"nc -zv {ip} 16379", "nc: connect to {ip} port 16379 (tcp) failed: Connection timed out"},
		},
		fixes: []string{
			"The cluster bus uses the data port + 10000 (16379). Your security group only opens 6379, so nodes never gossip and the join waits forever. Open 16379 between the nodes.",
			"MOVED means the client is not cluster-aware. Use the cluster client (`redis.NewClusterClient` in go-redis) so it follows slot redirects.",
			"With `maxmemory-policy noeviction` writes fail once the limit is reached. For a cache, use `allkeys-lru` and set TTLs on keys.",
		},
		fixesZh: []string{
			"Redis 集群总线用的是数据端口加 10000，也就是 16379。安全组只开了 6379，节点之间无法通信，所以一直等待加入。",
			"MOVED 说明客户端不支持集群模式，要换成 cluster client。",
		},
		code: []codeBlock{
			{"bash", "redis-cli --cluster create \\\n  10.0.1.11:6379 10.0.1.12:6379 10.0.1.13:6379 \\\n  10.0.1.14:6379 10.0.1.15:6379 10.0.1.16:6379 \\\n  --cluster-replicas 1"},
		},
		followUp: []string{"How much memory should each node have?"},
	},
	{
		key: "memleak", weight: 7, labelZh: "服务器内存泄漏", labelJa: "メモリリーク", labelKo: "메모리 누수",
		titles: []string{"Memory leak in {svc}", "RSS keeps growing in production", "goroutine leak after deploy"},
		asks: []string{
			"{svc} memory grows by about 200MB per hour until it's killed. Heap profile looks small. What else can hold memory?",
			"The number of goroutines in {svc} goes from 200 to 40k in a day. How do I find which ones leak?",
			"Node process RSS climbs steadily; `--inspect` heap snapshots show lots of detached closures in {id}.",
		},
		asksZh: []string{
			"服务器内存泄漏：{svc} 每小时涨 200MB，直到被杀掉，heap profile 看起来不大。",
			"{svc} 的 goroutine 数量一天从 200 涨到 4 万，怎么找出泄漏的地方？",
		},
		cmds: []cmdOut{
			{"curl -s localhost:6060/debug/pprof/goroutine?debug=1 | head -n 6", "goroutine profile: total {big}\n{big} @ 0x43a9f6 0x4061cc 0x405db8 0x8e1a35\n#\t0x8e1a34\tgithub.com/{id}/{svc}/internal/{id}.(*Watcher).loop+0x74\t{gofile}:{line}"},
			{"go tool pprof -top -inuse_space http://localhost:6060/debug/pprof/heap | head -n 8", "Showing nodes accounting for 412.5MB, 93.1% of 443.1MB total\n      flat  flat%   sum%        cum   cum%\n  301.2MB 67.98% 67.98%   301.2MB 67.98%  bytes.growSlice\n   64.1MB 14.47% 82.45%    64.1MB 14.47%  github.com/{id}/{svc}/internal/{id}.(*Cache).Put"},
			{"ps -o pid,rss,vsz,cmd -C {svc}", "    PID   RSS    VSZ CMD\n  {big} {big}00 {big}000 /usr/local/bin/{svc} --config /etc/{svc}/config.yaml"},
		},
		fixes: []string{
			"Each request starts a `Watcher.loop` goroutine that blocks on a channel nobody closes, so they pile up with their buffers. Pass the request context and return on `<-ctx.Done()`; the goroutine count should then stay flat.",
			"The cache has no bound: `Cache.Put` keeps every entry forever. Use an LRU with a size limit, and expose `cache_entries` as a metric so the growth is visible.",
		},
		fixesZh: []string{
			"每个请求都启动了一个 `Watcher.loop` goroutine，它阻塞在一个没人关闭的 channel 上，所以越积越多。传入请求的 context，在 `<-ctx.Done()` 时返回。",
			"缓存没有上限，`Cache.Put` 永远不删除数据，这就是内存泄漏的原因。换成带容量限制的 LRU。",
		},
		code: []codeBlock{
			{"go", "func (w *Watcher) loop(ctx context.Context) {\n\tfor {\n\t\tselect {\n\t\tcase <-ctx.Done():\n\t\t\treturn\n\t\tcase ev := <-w.events:\n\t\t\tw.handle(ev)\n\t\t}\n\t}\n}"},
		},
		followUp: []string{"How do I add a goroutine count alert?"},
	},
	{
		key: "migrate", weight: 6, labelZh: "数据库迁移", labelJa: "データベース移行", labelKo: "데이터베이스 마이그레이션",
		titles: []string{"数据库迁移失败 on {db}", "Migration locked the {id} table", "Alembic revision conflict"},
		asks: []string{
			"The migration `{n}_add_{id}_column` failed halfway on {db} and now the schema_migrations table says dirty. How do I recover?",
			"Adding a NOT NULL column with a default locked the {id} table for 10 minutes in production.",
			"`alembic upgrade head` fails with `Multiple head revisions are present for given argument 'head'`.",
		},
		asksZh: []string{
			"数据库迁移失败：`{n}_add_{id}_column` 执行到一半报错，现在 schema_migrations 显示 dirty，怎么恢复？",
			"数据库迁移失败，生产环境给 {id} 表加非空列锁表十分钟。",
		},
		cmds: []cmdOut{
			{"migrate -path db/migrations -database \"$DATABASE_URL\" version", "{n} (dirty)"},
			{"psql {db} -c \"SELECT pid, wait_event_type, query FROM pg_stat_activity WHERE wait_event_type = 'Lock';\"", "  pid  | wait_event_type |                 query\n-------+-----------------+----------------------------------------\n {big} | Lock            | ALTER TABLE {id} ADD COLUMN {id} text NOT NULL DEFAULT ''\n(1 row)"},
			{"alembic heads", "{hex}a1 (head)\n{hex}b7 (head)"},
		},
		fixes: []string{
			"Check which statements of migration {n} actually ran, finish or undo them by hand, then `migrate force {n}` (if complete) or `force {n}-1` to clear the dirty flag. Wrap future migrations in a transaction so a failure leaves nothing half-done.",
			"Split it: add the column nullable, backfill in batches, then add the constraint with `NOT VALID` and `VALIDATE CONSTRAINT` separately. Set `lock_timeout = '5s'` so a blocked ALTER fails fast instead of queueing every query behind it.",
			"Two branches each added a revision on the same parent. Create a merge revision with `alembic merge -m \"merge heads\" {hex}a1 {hex}b7`.",
		},
		fixesZh: []string{
			"先确认迁移 {n} 里哪些语句已经执行，手工补完或回滚，然后用 `migrate force` 清除 dirty 标记。以后的迁移放在事务里执行。",
			"分三步做：先加可空列，再分批回填数据，最后加约束。设置 `lock_timeout`，避免 ALTER 把所有查询都堵住。",
		},
		code: []codeBlock{
			{"sql", "SET lock_timeout = '5s';\nALTER TABLE {id} ADD COLUMN {id}_state text;\n-- backfill in batches of 10k\nUPDATE {id} SET {id}_state = 'new' WHERE id BETWEEN $1 AND $2;"},
		},
		followUp: []string{"Should migrations run in the deploy pipeline or at app start?"},
	},
	{
		key: "ci", weight: 6, labelZh: "CI 流水线", labelJa: "CI パイプライン", labelKo: "CI 파이프라인",
		titles: []string{"GitHub Actions cache not restored", "CI flaky test in {id}", "Docker build slow in CI"},
		asks: []string{
			"Our GitHub Actions workflow never hits the cache: `Cache not found for input keys: {id}-go-{hex}`.",
			"`TestSync{id}` fails in CI about one run in five but never locally.",
			"The docker build step takes 14 minutes in CI; locally it is 40 seconds thanks to the layer cache.",
		},
		asksZh: []string{
			"GitHub Actions 的缓存一直命中不了，`Cache not found for input keys`。",
			"CI 上 `TestSync{id}` 五次有一次失败，本地从来不失败。",
		},
		cmds: []cmdOut{
			{"gh run view {big} --log-failed | tail -n 5", "--- FAIL: TestSync{id} ({n}.02s)\n    {id}_test.go:{line}: got 3 events, want 4\nFAIL\nFAIL\tgithub.com/{id}/{svc}/internal/{id}\t{n}.811s"},
			{"go test -count=50 -run TestSync{id} ./internal/{id}/", "--- FAIL: TestSync{id} (0.{n}s)\n    {id}_test.go:{line}: got 3 events, want 4\nFAIL\nok  \t(49 passed, 1 failed)"},
		},
		fixes: []string{
			"The cache key hashes `go.sum` from the repo root, but this is a monorepo with go.sum in `services/{svc}/`. Use `hashFiles('**/go.sum')` and restore-keys with the prefix so partial hits work.",
			"The test sleeps 100ms and assumes the fourth event arrived. Wait on the condition instead (poll with a deadline, or a channel from the fake), and run it with `-count=200 -race` to confirm.",
			"Each CI runner starts with an empty layer cache. Use buildx with `cache-from: type=gha` and `cache-to: type=gha,mode=max`, and copy go.mod/go.sum before the source so dependencies stay cached.",
		},
		fixesZh: []string{
			"测试里 sleep 了 100ms 就假设第四个事件已经到了，CI 机器慢的时候就失败。改成等待条件满足，并用 `-count=200 -race` 验证。",
		},
		code: []codeBlock{
			{"yaml", "- uses: actions/cache@v4\n  with:\n    path: |\n      ~/.cache/go-build\n      ~/go/pkg/mod\n    key: ${{ runner.os }}-go-${{ hashFiles('**/go.sum') }}\n    restore-keys: ${{ runner.os }}-go-"},
		},
		followUp: []string{"Can I share that cache between branches?"},
	},
	{
		key: "youer", weight: 4, labelZh: "youer 服务端配置", labelJa: "youer サーバー設定", labelKo: "youer 서버 설정",
		titles: []string{"修改youer服务端配置", "youer server config reload", "youer 服务端超时"},
		asks: []string{
			"I need to change the youer server config so that {svc} talks to the new redis at {ip}:6379. Where does youer read its config from?",
			"youer server ignores my edits to /etc/youer/server.toml until a full restart. Is there a reload signal?",
		},
		asksZh: []string{
			"帮我修改youer服务端配置，把 {svc} 的 redis 地址改成 {ip}:6379，youer 的配置文件在哪里？",
			"修改youer服务端的超时时间之后没有生效，是不是需要重启？",
			"youer服务端启动报错 `invalid config: listen address`，我刚改了端口。",
		},
		cmds: []cmdOut{
			{"cat /etc/youer/server.toml", "[server]\nlisten = \"0.0.0.0:{port}\"\nread_timeout = \"15s\"\n\n[redis]\naddr = \"10.0.3.7:6379\"\npool_size = {n}"},
			{"systemctl status youer-server --no-pager | head -n 5", "● youer-server.service - youer server\n     Loaded: loaded (/etc/systemd/system/youer-server.service; enabled)\n     Active: active (running) since Mon {date}\n   Main PID: {big} (youer-server)"},
			{"sudo journalctl -u youer-server -n 3 --no-pager", "{date} youer-server[{big}]: config reloaded from /etc/youer/server.toml\n{date} youer-server[{big}]: redis: connected to {ip}:6379"},
		},
		fixes: []string{
			"youer reads `/etc/youer/server.toml` at start and re-reads it on SIGHUP, so `systemctl reload youer-server` is enough for the redis section; the `listen` address is only applied on restart.",
			"The listen value must be host:port; `:{port}` without quotes is parsed as a table key. Quote it: `listen = \"0.0.0.0:{port}\"`.",
		},
		fixesZh: []string{
			"youer 服务端启动时读取 `/etc/youer/server.toml`，收到 SIGHUP 时重新加载，所以修改 redis 配置之后 `systemctl reload youer-server` 就可以了；但 listen 地址只在重启时生效。",
			"已经修改youer服务端配置：redis 地址改成了 {ip}:6379，超时改成 30s，执行了 reload，日志显示已经连上新的 redis。",
		},
		code: []codeBlock{
			{"toml", "[server]\nlisten = \"0.0.0.0:{port}\"\nread_timeout = \"30s\"\n\n[redis]\naddr = \"{ip}:6379\"\npool_size = 20"},
		},
		followUp: []string{"能不能加个配置校验，避免再写错？"},
	},
	{
		key: "systemd", weight: 5, labelZh: "systemd 服务", labelJa: "systemd サービス", labelKo: "systemd 서비스",
		titles: []string{"systemd service keeps restarting", "cron job not running", "journald disk usage"},
		asks: []string{
			"`{svc}.service: Start request repeated too quickly.` after I changed the ExecStart line.",
			"My cron job `*/5 * * * * /home/{user}/bin/{id}.sh` never runs, but the script works when I run it by hand.",
			"/var/log/journal uses 38G. Is it safe to delete?",
		},
		asksZh: []string{
			"{svc}.service 报 `Start request repeated too quickly`，我只改了 ExecStart。",
			"cron 定时任务不执行，手动运行脚本是正常的。",
		},
		cmds: []cmdOut{
			{"systemctl status {svc} --no-pager | tail -n 4", "     Active: failed (Result: exit-code) since {date}\n    Process: {big} ExecStart=/usr/local/bin/{svc} --config /etc/{svc}.yaml (code=exited, status=203/EXEC)"},
			{"grep CRON /var/log/syslog | tail -n 2", "{date} {host} CRON[{big}]: ({user}) CMD (/home/{user}/bin/{id}.sh)\n{date} {host} CRON[{big}]: ({user}) MAIL (mailed 1 byte of output; but got status 0x004b)"},
			{"journalctl --disk-usage", "Archived and active journals take up 38.1G in the file system."},
		},
		fixes: []string{
			"status=203/EXEC means systemd could not execute the binary at all: the path is wrong or it lacks the execute bit. ExecStart needs an absolute path; check with `ls -l /usr/local/bin/{svc}`.",
			"cron runs with a minimal PATH and no login shell, so commands the script calls are not found. Set PATH at the top of the crontab and redirect output to a log file to see the error.",
			"Yes, vacuum it instead of deleting files: `journalctl --vacuum-size=2G`, and set `SystemMaxUse=2G` in journald.conf.",
		},
		fixesZh: []string{
			"status=203/EXEC 表示 systemd 根本执行不了这个程序：路径不对或者没有执行权限。",
			"cron 的 PATH 很少，脚本里调用的命令找不到。在 crontab 顶部设置 PATH，并把输出重定向到日志文件。",
		},
		code: []codeBlock{
			{"ini", "[Service]\nExecStart=/usr/local/bin/{svc} --config /etc/{svc}.yaml\nRestart=on-failure\nRestartSec=5\nStartLimitIntervalSec=60"},
		},
		followUp: []string{"How do I get an email when it fails?"},
	},
}

// English glue: what users and assistants say around the technical content.
// {id} draws from the Zipf vocabulary, which is where the long tail comes from.
var (
	userFillers = []string{
		"I also touched {path} yesterday, maybe that's related.",
		"We run this on {host} behind the {id} gateway.",
		"The {id} job runs every {n} minutes and it fails only sometimes.",
		"This started after we bumped {id} to {ver}.",
		"Nothing changed in {path} as far as I know.",
		"The {id} and {id} services share the same config.",
		"It is blocking the {id} release, so a quick fix is fine for now.",
		"Our staging uses {id} instead of {id}, if that matters.",
		"I can paste more logs from {host} if needed.",
		"The {id} team says their side is fine.",
	}
	assistantFillers = []string{
		"Let me check the {id} module first.",
		"The {id} handler in {path} is the first place this shows up.",
		"After that, the {id} metric should drop back to normal.",
		"I would also keep an eye on {id} during the next deploy.",
		"This is unrelated to the {id} change you mentioned.",
		"If {id} still fails, send me the output of the last command.",
		"The same pattern appears in {path}, so I fixed both.",
		"Nothing in {id} needs to change for this.",
	}
	genericFollowUps = []string{
		"Thanks, that worked. One more thing: the {id} check still shows a warning.",
		"Still failing, here is the new output from {host}.",
		"Can you explain why that fixes it?",
		"OK, can you apply the same change to {path}?",
		"Great. Can you also write a short note for the team about this?",
		"Hmm, now I get a different error in {id}.",
	}
	toolPreambles = []string{
		"Let me look at the current state first.",
		"I'll check the logs.",
		"Let me verify that.",
		"Checking the configuration.",
		"",
		"",
	}
	closings = []string{
		"Done. Summary: {fix}",
		"That should be it. To recap: the root cause was in {id}, and the fix is applied in {path}.",
		"All checks pass now. I left a comment in {path} explaining the change.",
	}
)

// Chinese, Japanese and Korean glue. Chinese text mixes English terms in, as
// Chinese developers write ({id} stays Latin; 修改{id}服务端 gives mixed-script runs).
var (
	userFillersZh = []string{
		"我昨天改过 {path}，不知道有没有关系。",
		"这个服务部署在 {host} 上，前面有 {id} 网关。",
		"这个问题只在生产环境出现，测试环境正常。",
		"升级 {id} 到 {ver} 之后开始出现的。",
		"需要修改{id}服务端吗？",
		"数据库和缓存都在同一台机器上。",
		"日志太多了，我只贴了最后几行。",
	}
	assistantFillersZh = []string{
		"我先看一下 {id} 模块的配置。",
		"问题出在 {path} 里的 {id} 处理函数。",
		"修改之后，{id} 的监控指标应该会恢复正常。",
		"下次部署的时候注意观察 {id} 的日志。",
		"这个和你说的 {id} 改动没有关系。",
	}
	followUpsZh = []string{
		"好的，解决了，谢谢！顺便问一下 {id} 的告警怎么处理？",
		"还是不行，这是新的报错信息。",
		"能解释一下为什么这样就好了吗？",
		"能帮我把同样的修改应用到 {path} 吗？",
		"可以，再帮我写一份给团队的说明。",
	}
	closingsZh = []string{
		"已经处理好了。总结一下：{fix}",
		"问题解决了，根本原因在 {id}，修改在 {path}。",
	}
	asksJa = []string{
		"{label}でエラーが出ています。`{cmd}` を実行すると失敗します。原因は何でしょうか？",
		"{svc} の{label}の設定を確認してもらえますか？昨日から動かなくなりました。",
		"本番環境だけで{label}の問題が起きます。ログを見てください。",
	}
	fixesJa = []string{
		"原因は {id} の設定です。{path} を修正して再起動すれば解決します。",
		"ログを確認しました。{label}の設定が古いままなので、更新が必要です。",
	}
	asksKo = []string{
		"{label} 관련 오류가 발생했습니다. `{cmd}` 실행 시 실패합니다.",
		"{svc} 의 {label} 설정을 확인해 주세요. 어제부터 동작하지 않습니다.",
	}
	fixesKo = []string{
		"원인은 {id} 설정입니다. {path} 파일을 수정하고 재시작하면 해결됩니다.",
		"로그를 확인했습니다. {label} 설정을 업데이트해야 합니다.",
	}
)

// Subagent delegation: the parent asks a child session to do a focused task.
var (
	delegateGoals = []string{
		"Investigate why {svc} fails to start and report the root cause with evidence.",
		"Search the codebase for every use of {id} and list the files that need the new config.",
		"Write a regression test for the {id} fix in {path} and run it.",
		"Check the {id} logs on {host} for the last hour and summarise the errors.",
	}
	delegateGoalsZh = []string{
		"排查 {svc} 启动失败的原因，给出证据。",
		"在代码里找出所有使用 {id} 的地方，列出需要修改的文件。",
	}
	childReports = []string{
		"Root cause found: {fix}",
		"Found {n} references to {id}; the ones in {path} and {gofile} need the new config.",
		"Added a regression test in {gofile}; it fails before the fix and passes after.",
	}
)
