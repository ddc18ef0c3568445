#!/usr/bin/env python3
"""Writes 30-long-refactor.jsonl: one long Claude Code session (150+ messages)
in which the billing service's hand-written SQL is replaced by sqlc-generated
queries. The content is curated beat by beat; only timestamps and tool call
ids are computed, deterministically, so rerunning gives the same file.

    python3 assets/demo/gen_long.py
"""
import datetime as dt
import hashlib
import json
import os
import random

SID = "4d7e2a90-billing-sqlc-refactor"
SOURCE, MODEL = "claude-code", "claude-opus-4-1"
TITLE = "billing: replace hand-written SQL with sqlc, keep the repo interface"
START = "2026-10-29T10:05:00Z"
ROOT = "/home/dev/billing"

def bash(cmd, desc=None):
    a = {"command": cmd}
    if desc:
        a["description"] = desc
    return ("Bash", a)

def read(path, offset=None, limit=None):
    a = {"file_path": ROOT + "/" + path}
    if offset:
        a["offset"] = offset
    if limit:
        a["limit"] = limit
    return ("Read", a)

def edit(path, old, new):
    return ("Edit", {"file_path": ROOT + "/" + path, "old_string": old, "new_string": new})

def write(path, content):
    return ("Write", {"file_path": ROOT + "/" + path, "content": content})

def grep(pattern, path=".", mode="content"):
    return ("Grep", {"pattern": pattern, "path": ROOT + "/" + path, "output_mode": mode, "-n": True})

def edited(path):
    return "The file %s/%s has been updated." % (ROOT, path)

def created(path):
    return "File created successfully at: %s/%s" % (ROOT, path)

# Each beat: ("u", text[, gap]) | ("a", text[, calls]) | ("t", text).
BEATS = []
def u(text, gap=None): BEATS.append(("u", text, gap))
def a(text, *calls): BEATS.append(("a", text, list(calls)))
def t(text): BEATS.append(("t", text, None))

# --- 1. the goal and a plan ---------------------------------------------------
u("""I want to get rid of the hand-written SQL in the billing service. Every query lives as a string in internal/repo/*.go and we scan rows by hand, and twice this quarter a column rename broke production because nothing checks the strings at build time. Plan is sqlc on top of our existing golang-migrate migrations. Constraints: the HTTP layer talks to `repo.Store` (an interface) and I don't want to touch handlers in this change. Go slow, keep it building after every step.""")
a("""Understood. Before proposing anything concrete I'll look at how the repo layer is laid out, how many queries there are, and what the migrations look like, since sqlc will read its schema from `db/migrations`.""",
  bash("cd %s && tree -L 2 internal db | head -40 && ls db/migrations | wc -l" % ROOT, "Show layout and count migrations"))
t("""internal
├── billing
│   ├── invoice.go
│   ├── payment.go
│   └── proration.go
├── http
│   ├── handlers.go
│   ├── middleware.go
│   └── routes.go
└── repo
    ├── customers.go
    ├── invoices.go
    ├── payments.go
    ├── repo.go
    ├── tx.go
    └── repo_test.go
db
└── migrations
84""")
a("""84 migration files, i.e. 42 up/down pairs. Now the interface the handlers depend on and a sample of how queries are written today.""",
  read("internal/repo/repo.go"), grep("QueryContext|QueryRowContext|ExecContext", "internal/repo", "count"))
t("""     1	package repo
     2	
     3	import (
     4		"context"
     5		"database/sql"
     6	)
     7	
     8	// Store is everything the HTTP layer needs from the database.
     9	type Store interface {
    10		CustomerByID(ctx context.Context, id string) (Customer, error)
    11		CreateCustomer(ctx context.Context, c Customer) (Customer, error)
    12		InvoiceByID(ctx context.Context, id string) (Invoice, error)
    13		ListInvoices(ctx context.Context, tenantID string, f InvoiceFilter) ([]Invoice, error)
    14		ListInvoicesWithCustomer(ctx context.Context, tenantID string, f InvoiceFilter) ([]InvoiceRow, error)
    15		CreateInvoice(ctx context.Context, inv Invoice) (Invoice, error)
    16		MarkInvoicePaid(ctx context.Context, id string, paymentID string) error
    17		RecordPayment(ctx context.Context, p Payment) (Payment, error)
    18		PaymentsForInvoice(ctx context.Context, invoiceID string) ([]Payment, error)
    19		InTx(ctx context.Context, fn func(Store) error) error
    20	}
    21	
    22	type pgStore struct {
    23		db dbtx
    24	}
    25	
    26	type dbtx interface {
    27		ExecContext(context.Context, string, ...any) (sql.Result, error)
    28		QueryContext(context.Context, string, ...any) (*sql.Rows, error)
    29		QueryRowContext(context.Context, string, ...any) *sql.Row
    30	}""")
t("""internal/repo/customers.go:3
internal/repo/invoices.go:7
internal/repo/payments.go:4
internal/repo/tx.go:2""")
a("""That's a manageable surface: 9 methods plus `InTx`, about 14 query call sites. The `dbtx` interface is exactly the shape sqlc generates, which makes this easier — a generated `Queries` can wrap either `*sql.DB` or `*sql.Tx`.

Proposed plan, one step per commit, building and testing after each:

1. Add `sqlc.yaml` pointing at `db/migrations` (schema) and a new `db/queries/` directory; generate into `internal/repo/sqlcdb`.
2. Port queries file by file: customers → payments → invoices, keeping `pgStore`'s method signatures and mapping generated structs to the existing `repo` types.
3. Switch `InTx` to `Queries.WithTx`.
4. Remove the old SQL strings and the hand-written scanning.
5. Add a CI check that generated code is up to date (`sqlc diff`) and that queries compile against the schema (`sqlc vet`).

The HTTP layer keeps using `repo.Store` unchanged. Does that match what you had in mind?""")
u("yes. one thing: we use pgx stdlib driver through database/sql, not pgx native. keep it that way for now")
a("""Good to know — then sqlc must generate for `database/sql` (`sql_package: "database/sql"`), not `pgx/v5`. Let me check the installed sqlc and the driver import.""",
  bash("cd %s && (sqlc version || echo 'sqlc: not installed') && grep -n 'pgx' go.mod internal/repo/*.go cmd/billing/main.go" % ROOT, "Check sqlc and driver"))
t("""sqlc: not installed
go.mod:9:	github.com/jackc/pgx/v5 v5.7.1
cmd/billing/main.go:14:	_ "github.com/jackc/pgx/v5/stdlib"
cmd/billing/main.go:31:	db, err := sql.Open("pgx", cfg.DatabaseURL)""")
a("""Installing sqlc as a Go tool dependency so the version is pinned in `go.mod` (Go 1.24+ `tool` directive) rather than whatever is on each laptop.""",
  bash("cd %s && go get -tool github.com/sqlc-dev/sqlc/cmd/sqlc@v1.30.0 && go tool sqlc version" % ROOT, "Add sqlc as a pinned tool"))
t("""go: added github.com/sqlc-dev/sqlc v1.30.0
go: added github.com/pganalyze/pg_query_go/v6 v6.1.0
go: added github.com/cubicdb/...  (37 more modules)
v1.30.0""")

# --- 2. sqlc.yaml and the migrations as schema ---------------------------------
a("""sqlc v1.30.0 pinned. Now the config. sqlc understands golang-migrate's file naming and ignores `*.down.sql` when you point `schema` at the directory, so the migrations stay the single source of truth for the schema.""",
  write("sqlc.yaml", """version: "2"
sql:
  - engine: postgresql
    schema: db/migrations
    queries: db/queries
    gen:
      go:
        package: sqlcdb
        out: internal/repo/sqlcdb
        sql_package: database/sql
        emit_interface: false
        emit_empty_slices: true
        overrides:
          - db_type: uuid
            go_type: string
"""))
t(created("sqlc.yaml"))
a("""Before writing queries, let me make sure sqlc can parse all 42 migrations — old migrations sometimes contain things the parser dislikes (`DO $$` blocks, `CREATE EXTENSION`, psql meta-commands).""",
  bash("cd %s && mkdir -p db/queries && echo '-- name: Ping :one\nSELECT 1;' > db/queries/ping.sql && go tool sqlc generate" % ROOT, "Generate with a placeholder query"))
t("""# package sqlcdb
db/migrations/000017_currency_check.up.sql:4:1: syntax error at or near "\\"
db/migrations/000031_invoice_numbers.up.sql:12:3: function "nextval_per_tenant" does not exist""")
a("""Two problems in old migrations:

1. `000017` contains a psql meta-command. Let me look at it.
2. `000031` calls `nextval_per_tenant`, which is probably created in a migration that sqlc parses *after* it, or inside a `DO` block it can't see.""",
  read("db/migrations/000017_currency_check.up.sql"), grep("nextval_per_tenant", "db/migrations", "files_with_matches"))
t("""     1	ALTER TABLE invoices
     2	  ADD CONSTRAINT invoices_currency_check CHECK (currency ~ '^[A-Z]{3}$');
     3	
     4	\\echo 'currency check added'""")
t("""db/migrations/000031_invoice_numbers.up.sql
db/migrations/000030_invoice_number_fn.up.sql""")
a("""- `000017`: the `\\echo` line is a psql-only command; golang-migrate sends the file to the server as-is, so this migration must have been applied by hand with psql originally. It's a no-op for the schema. Since the migration already ran everywhere, editing it is safe for golang-migrate (it doesn't checksum files), but I'd rather not rewrite history silently — I'll remove the line and note it in the commit message.
- `000030` defines `nextval_per_tenant` with `CREATE FUNCTION ... LANGUAGE plpgsql` — sqlc skips plpgsql bodies and apparently the function signature too. Let me check how it's declared.""",
  read("db/migrations/000030_invoice_number_fn.up.sql"))
t("""     1	DO $$
     2	BEGIN
     3	  IF NOT EXISTS (SELECT 1 FROM pg_proc WHERE proname = 'nextval_per_tenant') THEN
     4	    CREATE FUNCTION nextval_per_tenant(t uuid) RETURNS bigint AS $f$
     5	      UPDATE tenant_counters SET last_invoice_no = last_invoice_no + 1
     6	      WHERE tenant_id = t RETURNING last_invoice_no;
     7	    $f$ LANGUAGE sql;
     8	  END IF;
     9	END
    10	$$;""")
a("""As suspected: the function is created inside a `DO $$ ... $$` block, which sqlc treats as opaque. The function is plain `LANGUAGE sql`, so the guard is unnecessary — `CREATE OR REPLACE FUNCTION` is idempotent by itself. Rewriting `000030` to the equivalent top-level statement keeps the database behaviour identical and lets sqlc see the signature.""",
  write("db/migrations/000030_invoice_number_fn.up.sql", """CREATE OR REPLACE FUNCTION nextval_per_tenant(t uuid) RETURNS bigint AS $f$
  UPDATE tenant_counters SET last_invoice_no = last_invoice_no + 1
  WHERE tenant_id = t RETURNING last_invoice_no;
$f$ LANGUAGE sql;
"""),
  edit("db/migrations/000017_currency_check.up.sql", "\n\\echo 'currency check added'", ""),
  bash("cd %s && go tool sqlc generate && ls internal/repo/sqlcdb" % ROOT, "Regenerate"))
t(created("db/migrations/000030_invoice_number_fn.up.sql"))
t(edited("db/migrations/000017_currency_check.up.sql"))
t("""db.go
models.go
ping.sql.go""")
u("wait, are you sure editing applied migrations is fine? we had a dirty migration incident in september and I'm paranoid now")
a("""Fair question, let me be precise:

- golang-migrate tracks only the **version number** in `schema_migrations`, never a checksum of the file. An already-applied migration is never re-read, so editing it has no effect on existing databases.
- The only databases that run these files again are **new** ones (CI, fresh dev setups, the test containers). For them the result must be identical. For `000017` removing `\\echo` changes nothing (it was a psql client command). For `000030` `CREATE OR REPLACE FUNCTION` yields the same function the `DO` block created.

To prove the second point rather than argue it, I'll apply all migrations from scratch twice — once with the original files from `main`, once with the edited ones — and diff `pg_dump --schema-only`.""",
  bash("cd %s && ./scripts/schema-diff.sh main HEAD" % ROOT, "Compare schema from original vs edited migrations"))
t("""starting postgres:16 (container billing-schemadiff-7731)...
applying 42 migrations from main ... ok
applying 42 migrations from working tree ... ok
pg_dump --schema-only diff:
(no differences)
removed container billing-schemadiff-7731""")
a("""Identical schemas from both sets of files, so the edits are safe for fresh databases too, and existing ones never re-run them. I'll put that reasoning into the commit message for `000017`/`000030` so nobody has to redo this analysis.""")

# --- 3. customers ---------------------------------------------------------------
u("ok, convinced. start with customers")
a("""Customers first: only 3 queries. Reading the current implementation.""", read("internal/repo/customers.go"))
t("""     1	package repo
     2	
     3	func (s *pgStore) CustomerByID(ctx context.Context, id string) (Customer, error) {
     4		var c Customer
     5		err := s.db.QueryRowContext(ctx, `
     6			SELECT id, tenant_id, email, name, vat_id, created_at
     7			FROM customers WHERE id = $1`, id).
     8			Scan(&c.ID, &c.TenantID, &c.Email, &c.Name, &c.VATID, &c.CreatedAt)
     9		if errors.Is(err, sql.ErrNoRows) {
    10			return Customer{}, ErrNotFound
    11		}
    12		return c, err
    13	}
    14	
    15	func (s *pgStore) CreateCustomer(ctx context.Context, c Customer) (Customer, error) {
    16		err := s.db.QueryRowContext(ctx, `
    17			INSERT INTO customers (tenant_id, email, name, vat_id)
    18			VALUES ($1, $2, $3, $4)
    19			RETURNING id, created_at`, c.TenantID, c.Email, c.Name, c.VATID).
    20			Scan(&c.ID, &c.CreatedAt)
    21		return c, err
    22	}
    23	
    24	func (s *pgStore) customerExists(ctx context.Context, tenantID, email string) (bool, error) {
    25		var ok bool
    26		err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM customers WHERE tenant_id = $1 AND lower(email) = lower($2))`, tenantID, email).Scan(&ok)
    27		return ok, err
    28	}""")
a("""Writing the three queries for sqlc. I'm using `sqlc.arg()` names so the generated parameter struct has readable field names instead of `Column1`/`Lower`.""",
  write("db/queries/customers.sql", """-- name: CustomerByID :one
SELECT id, tenant_id, email, name, vat_id, created_at
FROM customers
WHERE id = sqlc.arg(id);

-- name: CreateCustomer :one
INSERT INTO customers (tenant_id, email, name, vat_id)
VALUES (sqlc.arg(tenant_id), sqlc.arg(email), sqlc.arg(name), sqlc.narg(vat_id))
RETURNING id, created_at;

-- name: CustomerEmailExists :one
SELECT EXISTS (
  SELECT 1 FROM customers
  WHERE tenant_id = sqlc.arg(tenant_id) AND lower(email) = lower(sqlc.arg(email))
);
"""),
  bash("cd %s && rm db/queries/ping.sql && go tool sqlc generate && sed -n '/type CustomerByIDRow/,/^}/p;/type CreateCustomerParams/,/^}/p' internal/repo/sqlcdb/customers.sql.go" % ROOT, "Generate and inspect customer types"))
t(created("db/queries/customers.sql"))
t("""type CustomerByIDRow struct {
	ID        string
	TenantID  string
	Email     string
	Name      string
	VatID     sql.NullString
	CreatedAt time.Time
}
type CreateCustomerParams struct {
	TenantID string
	Email    string
	Name     string
	VatID    sql.NullString
}""")
a("""Generated. `vat_id` is nullable, so sqlc gives `sql.NullString`, while our domain type uses `*string`. Two options:

- set `emit_pointers_for_null_types: true` — but that option only applies to the `pgx/v5` package, not `database/sql`;
- or convert at the boundary with two tiny helpers.

Since we stay on `database/sql`, helpers it is. I'll put them in `internal/repo/null.go`.""",
  write("internal/repo/null.go", """package repo

import "database/sql"

func fromNull(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	return &s.String
}

func toNull(p *string) sql.NullString {
	if p == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: *p, Valid: true}
}
"""))
t(created("internal/repo/null.go"))
a("""Now `pgStore` gets a `q *sqlcdb.Queries` next to `db`, and the customer methods delegate to it. The method signatures stay exactly the same.""",
  edit("internal/repo/repo.go", "type pgStore struct {\n\tdb dbtx\n}", "type pgStore struct {\n\tdb dbtx\n\tq  *sqlcdb.Queries\n}\n\nfunc newPGStore(db dbtx) *pgStore {\n\treturn &pgStore{db: db, q: sqlcdb.New(db)}\n}"),
  write("internal/repo/customers.go", """package repo

import (
	"context"
	"database/sql"
	"errors"

	"github.com/acme/billing/internal/repo/sqlcdb"
)

func (s *pgStore) CustomerByID(ctx context.Context, id string) (Customer, error) {
	r, err := s.q.CustomerByID(ctx, id)
	if errors.Is(err, sql.ErrNoRows) {
		return Customer{}, ErrNotFound
	}
	if err != nil {
		return Customer{}, err
	}
	return Customer{ID: r.ID, TenantID: r.TenantID, Email: r.Email, Name: r.Name,
		VATID: fromNull(r.VatID), CreatedAt: r.CreatedAt}, nil
}

func (s *pgStore) CreateCustomer(ctx context.Context, c Customer) (Customer, error) {
	r, err := s.q.CreateCustomer(ctx, sqlcdb.CreateCustomerParams{
		TenantID: c.TenantID, Email: c.Email, Name: c.Name, VatID: toNull(c.VATID),
	})
	if err != nil {
		return Customer{}, err
	}
	c.ID, c.CreatedAt = r.ID, r.CreatedAt
	return c, nil
}

func (s *pgStore) customerExists(ctx context.Context, tenantID, email string) (bool, error) {
	return s.q.CustomerEmailExists(ctx, sqlcdb.CustomerEmailExistsParams{TenantID: tenantID, Email: email})
}
"""),
  bash("cd %s && go build ./... && echo build ok" % ROOT, "Build"))
t(edited("internal/repo/repo.go"))
t(created("internal/repo/customers.go"))
t("build ok")
a("""It builds, but the compiler can't help with one thing: any `&pgStore{db: ...}` literal elsewhere leaves `q` nil and would panic on the first customer query. Finding them:""",
  grep("pgStore\\{", "."))
t("""internal/repo/repo.go:41:	return &pgStore{db: db}
internal/repo/tx.go:19:		return fn(&pgStore{db: tx})
cmd/billing/main.go:38:	store := repo.New(db)""")
a("""`main.go` goes through `repo.New`, so only the two literals inside the package need to change.""",
  edit("internal/repo/repo.go", "\treturn &pgStore{db: db}", "\treturn newPGStore(db)"),
  edit("internal/repo/tx.go", "\t\treturn fn(&pgStore{db: tx})", "\t\treturn fn(newPGStore(tx))"),
  bash("cd %s && go build ./... && go test ./internal/repo -run Customer -count=1 2>&1 | tail -5" % ROOT, "Build and run customer tests"))
t(edited("internal/repo/repo.go"))
t(edited("internal/repo/tx.go"))
t("""--- FAIL: TestCustomerRoundTrip (0.02s)
    testdb.go:31: start postgres: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?
FAIL
FAIL	github.com/acme/billing/internal/repo	0.041s""")
a("""The repo tests use testcontainers and Docker isn't running on this machine. Checking whether it's just stopped or using a different socket (Colima/Podman).""",
  bash("systemctl is-active docker 2>/dev/null; ls -l /var/run/docker.sock ~/.colima/default/docker.sock 2>&1 | head -3; docker context ls 2>&1 | head -4", "Check Docker daemon and contexts"))
t("""inactive
ls: cannot access '/var/run/docker.sock': No such file or directory
srw------- 1 dev dev 0 Oct 29 08:12 /home/dev/.colima/default/docker.sock
NAME       DESCRIPTION                               DOCKER ENDPOINT
colima *   colima                                    unix:///home/dev/.colima/default/docker.sock
default    Current DOCKER_HOST based configuration   unix:///var/run/docker.sock""")
a("""Docker runs under Colima here, and the `docker` CLI uses the `colima` context, but testcontainers-go looks at `DOCKER_HOST` or `/var/run/docker.sock`, not CLI contexts. Setting `DOCKER_HOST` for the test run (and `TESTCONTAINERS_RYUK_DISABLED=true`, since Ryuk can't mount the Colima socket path):""",
  bash("cd %s && export DOCKER_HOST=unix://$HOME/.colima/default/docker.sock TESTCONTAINERS_RYUK_DISABLED=true && go test ./internal/repo -run Customer -count=1 -v 2>&1 | grep -E '^(=== RUN|--- |ok|FAIL)'" % ROOT, "Run customer tests against Colima"))
t("""=== RUN   TestCustomerRoundTrip
--- PASS: TestCustomerRoundTrip (2.81s)
=== RUN   TestCustomerNotFound
--- PASS: TestCustomerNotFound (0.01s)
=== RUN   TestCustomerEmailExistsCaseInsensitive
--- PASS: TestCustomerEmailExistsCaseInsensitive (0.01s)
ok  	github.com/acme/billing/internal/repo	3.104s""")
a("""Customers are ported and green. The 2.8 s in the first test is the Postgres container start plus applying all 42 migrations; later tests reuse it.

I'd add the two env vars to the `Makefile`'s `test` target behind a check for `~/.colima`, so you don't have to remember them. Shall I?""")
u("no, I'll put it in my shell rc. keep going with payments")

# --- 4. payments ----------------------------------------------------------------
a("""Payments: `RecordPayment` and `PaymentsForInvoice`.""", read("internal/repo/payments.go"))
t("""     1	package repo
     2	
     3	func (s *pgStore) RecordPayment(ctx context.Context, p Payment) (Payment, error) {
     4		err := s.db.QueryRowContext(ctx, `
     5			INSERT INTO payments (invoice_id, provider, provider_ref, amount_cents, currency, status)
     6			VALUES ($1, $2, $3, $4, $5, $6)
     7			RETURNING id, created_at`,
     8			p.InvoiceID, p.Provider, p.ProviderRef, p.AmountCents, p.Currency, string(p.Status)).
     9			Scan(&p.ID, &p.CreatedAt)
    10		return p, err
    11	}
    12	
    13	func (s *pgStore) PaymentsForInvoice(ctx context.Context, invoiceID string) ([]Payment, error) {
    14		rows, err := s.db.QueryContext(ctx, `
    15			SELECT id, invoice_id, provider, provider_ref, amount_cents, currency, status, created_at
    16			FROM payments WHERE invoice_id = $1 ORDER BY created_at`, invoiceID)
    17		if err != nil {
    18			return nil, err
    19		}
    20		var out []Payment
    21		for rows.Next() {
    22			var p Payment
    23			var status string
    24			if err := rows.Scan(&p.ID, &p.InvoiceID, &p.Provider, &p.ProviderRef, &p.AmountCents, &p.Currency, &status, &p.CreatedAt); err != nil {
    25				return nil, err
    26			}
    27			p.Status = PaymentStatus(status)
    28			out = append(out, p)
    29		}
    30		return out, nil
    31	}""")
a("""Note a latent bug in the old code: `PaymentsForInvoice` never checks `rows.Err()` and never calls `rows.Close()` on the error path. The `defer rows.Close()` is missing entirely — if `Scan` fails, the connection leaks. The generated code handles both, so this gets fixed for free.

`status` is a Postgres enum (`payment_status`); sqlc will generate a `PaymentStatus` string type in `sqlcdb`, which I'll convert to our `repo.PaymentStatus`.""",
  write("db/queries/payments.sql", """-- name: RecordPayment :one
INSERT INTO payments (invoice_id, provider, provider_ref, amount_cents, currency, status)
VALUES (sqlc.arg(invoice_id), sqlc.arg(provider), sqlc.arg(provider_ref),
        sqlc.arg(amount_cents), sqlc.arg(currency), sqlc.arg(status))
RETURNING id, created_at;

-- name: PaymentsForInvoice :many
SELECT id, invoice_id, provider, provider_ref, amount_cents, currency, status, created_at
FROM payments
WHERE invoice_id = sqlc.arg(invoice_id)
ORDER BY created_at, id;
"""),
  bash("cd %s && go tool sqlc generate && grep -n 'PaymentStatus' internal/repo/sqlcdb/models.go | head -8" % ROOT, "Generate payments"))
t(created("db/queries/payments.sql"))
t("""14:type PaymentStatus string
17:	PaymentStatusPending   PaymentStatus = "pending"
18:	PaymentStatusSucceeded PaymentStatus = "succeeded"
19:	PaymentStatusFailed    PaymentStatus = "failed"
20:	PaymentStatusRefunded  PaymentStatus = "refunded"
23:func (e *PaymentStatus) Scan(src interface{}) error {""")
a("""I also added `id` as a tie-breaker in `ORDER BY created_at, id`: two payments inserted in the same transaction get the same `now()`, so the old ordering was not deterministic. Porting the methods:""",
  write("internal/repo/payments.go", """package repo

import (
	"context"

	"github.com/acme/billing/internal/repo/sqlcdb"
)

func (s *pgStore) RecordPayment(ctx context.Context, p Payment) (Payment, error) {
	r, err := s.q.RecordPayment(ctx, sqlcdb.RecordPaymentParams{
		InvoiceID: p.InvoiceID, Provider: p.Provider, ProviderRef: p.ProviderRef,
		AmountCents: p.AmountCents, Currency: p.Currency, Status: sqlcdb.PaymentStatus(p.Status),
	})
	if err != nil {
		return Payment{}, err
	}
	p.ID, p.CreatedAt = r.ID, r.CreatedAt
	return p, nil
}

func (s *pgStore) PaymentsForInvoice(ctx context.Context, invoiceID string) ([]Payment, error) {
	rows, err := s.q.PaymentsForInvoice(ctx, invoiceID)
	if err != nil {
		return nil, err
	}
	out := make([]Payment, len(rows))
	for i, r := range rows {
		out[i] = Payment{ID: r.ID, InvoiceID: r.InvoiceID, Provider: r.Provider, ProviderRef: r.ProviderRef,
			AmountCents: r.AmountCents, Currency: r.Currency, Status: PaymentStatus(r.Status), CreatedAt: r.CreatedAt}
	}
	return out, nil
}
"""),
  bash("cd %s && go build ./... && go test ./internal/repo -run Payment -count=1 2>&1 | tail -4" % ROOT, "Build and test payments"))
t(created("internal/repo/payments.go"))
t("""--- FAIL: TestPaymentsForInvoiceEmpty (0.01s)
    payments_test.go:58: PaymentsForInvoice(no payments) = []repo.Payment{}, want nil
FAIL
FAIL	github.com/acme/billing/internal/repo	3.377s""")
a("""The test asserts `nil` for an invoice without payments, but now we return an empty, non-nil slice (because of `emit_empty_slices: true` and `make`). For callers there's no difference — the JSON handler encodes both as `[]`? Let me check that rather than assume, since `encoding/json` encodes a nil slice as `null`.""",
  grep("PaymentsForInvoice", "internal/http"))
t("""internal/http/handlers.go:212:	payments, err := h.store.PaymentsForInvoice(r.Context(), id)
internal/http/handlers.go:217:	writeJSON(w, http.StatusOK, invoicePaymentsResponse{Invoice: inv, Payments: payments})""")
a("""So before this change the API returned `"payments": null` for an invoice without payments, and now it returns `"payments": []`. That's arguably a fix, but it **is** an API change, and you said no behaviour changes for handlers in this refactor. Options:

1. keep `nil` for empty results in `pgStore` (return `nil` when `len(rows) == 0`), or
2. accept `[]` and update the test, noting it in the changelog.

Which do you prefer?""")
u("""ugh. the mobile app crashes on null arrays actually, there's a ticket for that. take []. update the test and add a line to CHANGELOG under Unreleased""")
a("""Taking `[]`. Updating the test to assert an empty non-nil slice, and adding the changelog entry.""",
  edit("internal/repo/payments_test.go", "\tif got != nil {\n\t\tt.Fatalf(\"PaymentsForInvoice(no payments) = %#v, want nil\", got)\n\t}", "\tif got == nil || len(got) != 0 {\n\t\tt.Fatalf(\"PaymentsForInvoice(no payments) = %#v, want empty non-nil slice\", got)\n\t}"),
  edit("CHANGELOG.md", "## Unreleased\n", "## Unreleased\n\n- API: `GET /v1/invoices/{id}/payments` returns `\"payments\": []` instead of `null` when there are none (fixes mobile crash, BILL-2291).\n"),
  bash("cd %s && go test ./internal/repo -run Payment -count=1 2>&1 | tail -2" % ROOT, "Rerun payment tests"))
t(edited("internal/repo/payments_test.go"))
t(edited("CHANGELOG.md"))
t("ok  	github.com/acme/billing/internal/repo	3.290s")
a("""Payments are done. Three methods down, the big one (invoices, 7 queries including the filtered list) is next.""")

# --- 5. invoices: the filtered list -----------------------------------------------
a("""Invoices has the only dynamic query. Reading it carefully, because sqlc can't build SQL strings at runtime.""",
  read("internal/repo/invoices.go", 1, 80))
t("""    12	type InvoiceFilter struct {
    13		Status   *InvoiceStatus
    14		From, To *time.Time
    15		Customer *string
    16		Limit    int
    17		After    *string // keyset cursor: invoice id
    18	}
    19	
    20	func (s *pgStore) ListInvoices(ctx context.Context, tenantID string, f InvoiceFilter) ([]Invoice, error) {
    21		q := `SELECT id, tenant_id, customer_id, number, status, amount_cents, currency, due_at, created_at
    22		      FROM invoices WHERE tenant_id = $1`
    23		args := []any{tenantID}
    24		if f.Status != nil {
    25			args = append(args, string(*f.Status))
    26			q += fmt.Sprintf(" AND status = $%d", len(args))
    27		}
    28		if f.From != nil {
    29			args = append(args, *f.From)
    30			q += fmt.Sprintf(" AND created_at >= $%d", len(args))
    31		}
    32		if f.To != nil {
    33			args = append(args, *f.To)
    34			q += fmt.Sprintf(" AND created_at < $%d", len(args))
    35		}
    36		if f.Customer != nil {
    37			args = append(args, *f.Customer)
    38			q += fmt.Sprintf(" AND customer_id = $%d", len(args))
    39		}
    40		if f.After != nil {
    41			args = append(args, *f.After)
    42			q += fmt.Sprintf(" AND (created_at, id) < (SELECT created_at, id FROM invoices WHERE id = $%d)", len(args))
    43		}
    44		args = append(args, f.Limit)
    45		q += fmt.Sprintf(" ORDER BY created_at DESC, id DESC LIMIT $%d", len(args))""")
a("""The standard sqlc pattern for optional filters is `sqlc.narg(x) IS NULL OR column = sqlc.narg(x)`: one static query, with NULL meaning "no filter".

```sql
-- name: ListInvoices :many
SELECT id, tenant_id, customer_id, number, status, amount_cents, currency, due_at, created_at
FROM invoices
WHERE tenant_id = sqlc.arg(tenant_id)
  AND (sqlc.narg(status)::invoice_status IS NULL OR status = sqlc.narg(status))
  AND (sqlc.narg(from_ts)::timestamptz IS NULL OR created_at >= sqlc.narg(from_ts))
  AND (sqlc.narg(to_ts)::timestamptz   IS NULL OR created_at <  sqlc.narg(to_ts))
  AND (sqlc.narg(customer_id)::uuid    IS NULL OR customer_id = sqlc.narg(customer_id))
  AND (sqlc.narg(after_id)::uuid IS NULL
       OR (created_at, id) < (SELECT created_at, id FROM invoices WHERE id = sqlc.narg(after_id)))
ORDER BY created_at DESC, id DESC
LIMIT sqlc.arg(lim);
```

The worry with this pattern is the planner: with a generic plan, Postgres may not use the index on `(tenant_id, created_at)` well. I'll check the plan with realistic parameters after generating.""",
  write("db/queries/invoices.sql", """-- name: InvoiceByID :one
SELECT id, tenant_id, customer_id, number, status, amount_cents, currency, due_at, created_at
FROM invoices
WHERE id = sqlc.arg(id);

-- name: ListInvoices :many
SELECT id, tenant_id, customer_id, number, status, amount_cents, currency, due_at, created_at
FROM invoices
WHERE tenant_id = sqlc.arg(tenant_id)
  AND (sqlc.narg(status)::invoice_status IS NULL OR status = sqlc.narg(status))
  AND (sqlc.narg(from_ts)::timestamptz IS NULL OR created_at >= sqlc.narg(from_ts))
  AND (sqlc.narg(to_ts)::timestamptz IS NULL OR created_at < sqlc.narg(to_ts))
  AND (sqlc.narg(customer_id)::uuid IS NULL OR customer_id = sqlc.narg(customer_id))
  AND (sqlc.narg(after_id)::uuid IS NULL
       OR (created_at, id) < (SELECT i2.created_at, i2.id FROM invoices i2 WHERE i2.id = sqlc.narg(after_id)))
ORDER BY created_at DESC, id DESC
LIMIT sqlc.arg(lim);
"""),
  bash("cd %s && go tool sqlc generate 2>&1 | head -5" % ROOT, "Generate invoices"))
t(created("db/queries/invoices.sql"))
t("""# package sqlcdb
db/queries/invoices.sql:9:8: column "status" does not exist""")
a("""`column "status" does not exist` on invoices? Our Go struct has a `Status`, so the column must be named differently in the schema. Checking the migrations:""",
  grep("invoices.*status|RENAME COLUMN.*status", "db/migrations"))
t("""db/migrations/000004_invoices.up.sql:9:  status text NOT NULL DEFAULT 'draft',
db/migrations/000026_invoice_state_enum.up.sql:3:ALTER TABLE invoices RENAME COLUMN status TO state;
db/migrations/000026_invoice_state_enum.up.sql:4:ALTER TABLE invoices ALTER COLUMN state TYPE invoice_state USING state::invoice_state;""")
a("""Migration 26 renamed `status` → `state` and changed its type to the `invoice_state` enum. The hand-written Go still says `status` in SQL… let me check how the current code even works.""",
  bash("cd %s && git log -1 --format='%%h %%ad %%s' --date=short -- db/migrations/000026_invoice_state_enum.up.sql && grep -rn \"status\" internal/repo/invoices.go | head -5 && psql \"$DEV_DATABASE_URL\" -Atc \"select viewname from pg_views where viewname like 'invoices%%'\"" % ROOT, "Investigate the rename"))
t("""a81c3f0 2026-05-12 invoices: status -> state enum (keep compat view)
internal/repo/invoices.go:21:	q := `SELECT id, tenant_id, customer_id, number, status, amount_cents, currency, due_at, created_at
internal/repo/invoices.go:26:		q += fmt.Sprintf(" AND status = $%d", len(args))
internal/repo/invoices.go:58:		UPDATE invoices SET status = 'paid', paid_at = now(), payment_id = $2 WHERE id = $1`, id, paymentID)""")
a("""Interesting — the commit says "keep compat view", but there's no `invoices*` view in the dev database, and the code still uses `status`. Let me look at the full migration and at how the repo tests pass today.""",
  read("db/migrations/000026_invoice_state_enum.up.sql"))
t("""     1	CREATE TYPE invoice_state AS ENUM ('draft', 'open', 'paid', 'void', 'uncollectible');
     2	
     3	ALTER TABLE invoices RENAME COLUMN status TO state;
     4	ALTER TABLE invoices ALTER COLUMN state TYPE invoice_state USING state::invoice_state;
     5	
     6	-- compat: old code still writes/reads "status" until the API is migrated
     7	ALTER TABLE invoices ADD COLUMN status text GENERATED ALWAYS AS (state::text) STORED;""")
a("""That explains it: there's a **generated column** `status text GENERATED ALWAYS AS (state::text) STORED`. Reads of `status` work. But writes can't target a generated column — so `MarkInvoicePaid`'s `UPDATE invoices SET status = 'paid'` should fail with `column "status" can only be updated to DEFAULT`. Either that method is broken in production, or sqlc's error hides something. Checking both.""",
  bash("cd %s && go tool sqlc generate 2>&1 | head -3; psql \"$DEV_DATABASE_URL\" -c \"update invoices set status = 'paid' where false\"" % ROOT, "Reproduce"))
t("""# package sqlcdb
db/queries/invoices.sql:9:8: column "status" does not exist
ERROR:  column "status" can only be updated to DEFAULT
DETAIL:  Column "status" is a generated column.""")
u("wait what. MarkInvoicePaid is broken?? payments have been going through all week")
a("""Let me check before anyone panics — maybe the production path doesn't go through `MarkInvoicePaid` at all.""",
  grep("MarkInvoicePaid|SET state = 'paid'", "."))
t("""internal/repo/invoices.go:56:func (s *pgStore) MarkInvoicePaid(ctx context.Context, id string, paymentID string) error {
internal/repo/repo.go:16:	MarkInvoicePaid(ctx context.Context, id string, paymentID string) error
internal/billing/payment.go:88:	if _, err := tx.ExecContext(ctx, `UPDATE invoices SET state = 'paid', paid_at = now(), payment_id = $2 WHERE id = $1`, inv.ID, p.ID); err != nil {""")
a("""Good news: production marks invoices paid in `internal/billing/payment.go:88`, which writes `state` directly, bypassing the repo. `repo.MarkInvoicePaid` is **dead code** with a latent bug — no caller uses it (the interface method exists, but nothing calls it; `grep` shows only its definition and declaration).

So nothing is broken in production. Two separate findings for this refactor:

1. sqlc doesn't know about generated columns in this sqlc version when they come from `ADD COLUMN ... GENERATED` — it dropped the column, hence `column "status" does not exist`. The right fix is to stop using the compat column: query `state` and map it to `InvoiceStatus` in Go.
2. `MarkInvoicePaid` should either be fixed to write `state` and become the one implementation that `billing/payment.go` uses, or be deleted.""")
u("fix it to write state and make billing/payment.go use it. but as a separate commit after the sqlc stuff. note it down")
a("""Noted as a follow-up (separate commit): *make `billing/payment.go` call `repo.MarkInvoicePaid`, which writes `state`*.

For now the invoice queries select `state` and I map it to `InvoiceStatus` in Go.""",
  bash("cd %s && sed -i 's/sqlc.narg(status)::invoice_status IS NULL OR status = sqlc.narg(status)/sqlc.narg(state)::invoice_state IS NULL OR state = sqlc.narg(state)/; s/customer_id, number, status, amount_cents/customer_id, number, state, amount_cents/g' db/queries/invoices.sql && go tool sqlc generate && echo generated" % ROOT, "Use state in invoice queries"))
t("generated")

# --- 6. query plan for the optional-filter pattern ---------------------------------
a("""Now the planner check I mentioned. database/sql with pgx stdlib uses the extended protocol, so after 5 executions Postgres may switch to a *generic* plan for the prepared statement, which is where `x IS NULL OR col = x` hurts. Testing on the dev database (2.1M invoices, biggest tenant has 380k):""",
  bash("cd %s && psql \"$DEV_DATABASE_URL\" -f scripts/explain-list-invoices.sql 2>&1 | grep -E 'plan_cache_mode|Index|Seq Scan|Execution Time'" % ROOT, "EXPLAIN custom vs generic plan"))
t("""plan_cache_mode = force_custom_plan
  ->  Index Scan using invoices_tenant_created_idx on invoices  (cost=0.56..84.10 rows=50 width=96)
 Execution Time: 0.412 ms
plan_cache_mode = force_generic_plan
  ->  Index Scan using invoices_tenant_created_idx on invoices  (cost=0.56..19114.77 rows=50 width=96)
        Filter: ((($2)::invoice_state IS NULL) OR (state = $2)) AND ...
 Execution Time: 0.538 ms""")
a("""Both plans use `invoices_tenant_created_idx` and walk it in `created_at DESC` order, stopping after `LIMIT 50`; the optional predicates become a cheap filter. 0.41 ms (custom) vs 0.54 ms (generic) on the biggest tenant. The pattern is fine here because the tenant + sort order do the heavy lifting.

The one case that could degrade is a *selective* filter on a huge tenant, e.g. `state = 'uncollectible'` (rare), where the scan walks many rows before finding 50. Measuring that worst case:""",
  bash("cd %s && psql \"$DEV_DATABASE_URL\" -v state=uncollectible -f scripts/explain-list-invoices.sql 2>&1 | grep -E 'plan_cache_mode|Rows Removed|Execution Time'" % ROOT, "Worst case: rare state"))
t("""plan_cache_mode = force_custom_plan
   Rows Removed by Filter: 379102
 Execution Time: 212.804 ms
plan_cache_mode = force_generic_plan
   Rows Removed by Filter: 379102
 Execution Time: 231.377 ms""")
a("""212 ms in *both* modes, so it's not the generic-plan issue — it's the same with the old hand-built query, which would produce the identical plan. The fix for that is an index, independent of sqlc:

```sql
CREATE INDEX CONCURRENTLY invoices_tenant_state_created_idx
  ON invoices (tenant_id, state, created_at DESC, id DESC);
```

I'd keep it out of this refactor too and list it as a follow-up, since it needs a migration and `CONCURRENTLY` can't run inside golang-migrate's transaction (it needs `-- +migrate NoTransaction`-style handling, which golang-migrate does only if the file contains a single statement)."""),
u("agreed, follow-up. put it in the list")

# --- 7. the rest of invoices ------------------------------------------------------
a("""Added to follow-ups. Next, `ListInvoicesWithCustomer`, the method that joins customer data for the invoice list page.""",
  read("internal/repo/invoices.go", 60, 40))
t("""    60	func (s *pgStore) ListInvoicesWithCustomer(ctx context.Context, tenantID string, f InvoiceFilter) ([]InvoiceRow, error) {
    61		invs, err := s.ListInvoices(ctx, tenantID, f)
    62		if err != nil {
    63			return nil, err
    64		}
    65		out := make([]InvoiceRow, 0, len(invs))
    66		for _, inv := range invs {
    67			c, err := s.CustomerByID(ctx, inv.CustomerID)
    68			if err != nil {
    69				return nil, fmt.Errorf("customer of invoice %s: %w", inv.ID, err)
    70			}
    71			out = append(out, InvoiceRow{Invoice: inv, Customer: c})
    72		}
    73		return out, nil
    74	}""")
a("""A textbook **N+1**: one query for the page of invoices, then one `CustomerByID` per invoice — 51 round trips for a page of 50. Since I'm rewriting it anyway, a single JOIN with `sqlc.embed` returns both structs per row. Same filters as `ListInvoices`, so I'm duplicating the WHERE clause (sqlc has no query composition; a view would be the alternative, but that's a schema change).""",
  edit("db/queries/invoices.sql", "LIMIT sqlc.arg(lim);\n", """LIMIT sqlc.arg(lim);

-- name: ListInvoicesWithCustomer :many
SELECT sqlc.embed(i), sqlc.embed(c)
FROM invoices i
JOIN customers c ON c.id = i.customer_id
WHERE i.tenant_id = sqlc.arg(tenant_id)
  AND (sqlc.narg(state)::invoice_state IS NULL OR i.state = sqlc.narg(state))
  AND (sqlc.narg(from_ts)::timestamptz IS NULL OR i.created_at >= sqlc.narg(from_ts))
  AND (sqlc.narg(to_ts)::timestamptz IS NULL OR i.created_at < sqlc.narg(to_ts))
  AND (sqlc.narg(customer_id)::uuid IS NULL OR i.customer_id = sqlc.narg(customer_id))
  AND (sqlc.narg(after_id)::uuid IS NULL
       OR (i.created_at, i.id) < (SELECT i2.created_at, i2.id FROM invoices i2 WHERE i2.id = sqlc.narg(after_id)))
ORDER BY i.created_at DESC, i.id DESC
LIMIT sqlc.arg(lim);
"""),
  bash("cd %s && go tool sqlc generate && sed -n '/type ListInvoicesWithCustomerRow/,/^}/p' internal/repo/sqlcdb/invoices.sql.go" % ROOT, "Generate the join"))
t(edited("db/queries/invoices.sql"))
t("""type ListInvoicesWithCustomerRow struct {
	Invoice  Invoice
	Customer Customer
}""")
a("""sqlc generated `Invoice` and `Customer` model structs for the embedded tables — note `sqlcdb.Customer` includes every column (e.g. `deleted_at`, `stripe_id`) since `sqlc.embed` selects `c.*`. Mapping functions so the conversion lives in one place instead of being repeated in every method:""",
  write("internal/repo/convert.go", """package repo

import "github.com/acme/billing/internal/repo/sqlcdb"

func invoiceFromDB(r sqlcdb.Invoice) Invoice {
	return Invoice{ID: r.ID, TenantID: r.TenantID, CustomerID: r.CustomerID, Number: r.Number,
		Status: InvoiceStatus(r.State), AmountCents: r.AmountCents, Currency: r.Currency,
		DueAt: r.DueAt, CreatedAt: r.CreatedAt}
}

func customerFromDB(r sqlcdb.Customer) Customer {
	return Customer{ID: r.ID, TenantID: r.TenantID, Email: r.Email, Name: r.Name,
		VATID: fromNull(r.VatID), CreatedAt: r.CreatedAt}
}
"""),
  bash("cd %s && go build ./... 2>&1 | head -5" % ROOT, "Build"))
t(created("internal/repo/convert.go"))
t("""internal/repo/convert.go:8:10: cannot use r.DueAt (variable of struct type sql.NullTime) as time.Time value in struct literal""")
a("""`due_at` is nullable (draft invoices have no due date yet) and our `Invoice.DueAt` is a `time.Time` where zero means unset. Checking what the old code did, so the mapping preserves it exactly:""",
  grep("DueAt", "internal"))
t("""internal/repo/invoices.go:49:		var due sql.NullTime
internal/repo/invoices.go:52:		inv.DueAt = due.Time // zero when NULL
internal/http/handlers.go:301:	if !inv.DueAt.IsZero() {
internal/billing/invoice.go:44:	if inv.DueAt.IsZero() && inv.Status != StatusDraft {""")
a("""The old code collapsed NULL to the zero time, and callers check `IsZero()`. `sql.NullTime.Time` is already the zero value when `Valid` is false, so `r.DueAt.Time` preserves that behaviour exactly.""",
  edit("internal/repo/convert.go", "DueAt: r.DueAt, CreatedAt", "DueAt: r.DueAt.Time, CreatedAt"),
  bash("cd %s && go build ./... && echo ok" % ROOT, "Build"))
t(edited("internal/repo/convert.go"))
t("ok")
a("""Now the remaining invoice methods. `CreateInvoice` allocates the per-tenant invoice number with `nextval_per_tenant` (the function sqlc can now see thanks to the `000030` rewrite), and `MarkInvoicePaid` becomes an `:execrows` query so "no such invoice" is detectable without a second query.""",
  edit("db/queries/invoices.sql", "-- name: ListInvoices :many", """-- name: CreateInvoice :one
INSERT INTO invoices (tenant_id, customer_id, number, state, amount_cents, currency, due_at)
VALUES (sqlc.arg(tenant_id), sqlc.arg(customer_id), nextval_per_tenant(sqlc.arg(tenant_id)),
        'draft', sqlc.arg(amount_cents), sqlc.arg(currency), sqlc.narg(due_at))
RETURNING id, number, created_at;

-- name: MarkInvoicePaid :execrows
UPDATE invoices
SET state = 'paid', paid_at = now(), payment_id = sqlc.arg(payment_id)
WHERE id = sqlc.arg(id) AND state IN ('open', 'uncollectible');

-- name: ListInvoices :many"""),
  bash("cd %s && go tool sqlc generate && echo generated" % ROOT, "Generate"))
t(edited("db/queries/invoices.sql"))
t("generated")
a("""I added `AND state IN ('open', 'uncollectible')` to `MarkInvoicePaid`: paying a `draft` or `void` invoice, or paying twice, now affects 0 rows instead of silently overwriting `payment_id`. Since this method had no callers, it's not a behaviour change for anything live — but it matters for the follow-up where `billing/payment.go` starts using it. Writing the Go side of all invoice methods:""",
  write("internal/repo/invoices.go", """package repo

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/acme/billing/internal/repo/sqlcdb"
)

// ErrInvoiceNotPayable is returned when an invoice does not exist or is not
// in a payable state (open or uncollectible).
var ErrInvoiceNotPayable = errors.New("invoice not payable")

type InvoiceFilter struct {
	Status   *InvoiceStatus
	From, To *time.Time
	Customer *string
	Limit    int
	After    *string // keyset cursor: invoice id
}

func (s *pgStore) InvoiceByID(ctx context.Context, id string) (Invoice, error) {
	r, err := s.q.InvoiceByID(ctx, id)
	if errors.Is(err, sql.ErrNoRows) {
		return Invoice{}, ErrNotFound
	}
	if err != nil {
		return Invoice{}, err
	}
	return invoiceFromDB(sqlcdb.Invoice(r)), nil
}

func (s *pgStore) ListInvoices(ctx context.Context, tenantID string, f InvoiceFilter) ([]Invoice, error) {
	rows, err := s.q.ListInvoices(ctx, listParams(tenantID, f))
	if err != nil {
		return nil, err
	}
	out := make([]Invoice, len(rows))
	for i, r := range rows {
		out[i] = invoiceFromDB(sqlcdb.Invoice(r))
	}
	return out, nil
}

func (s *pgStore) ListInvoicesWithCustomer(ctx context.Context, tenantID string, f InvoiceFilter) ([]InvoiceRow, error) {
	rows, err := s.q.ListInvoicesWithCustomer(ctx, sqlcdb.ListInvoicesWithCustomerParams(listParams(tenantID, f)))
	if err != nil {
		return nil, err
	}
	out := make([]InvoiceRow, len(rows))
	for i, r := range rows {
		out[i] = InvoiceRow{Invoice: invoiceFromDB(r.Invoice), Customer: customerFromDB(r.Customer)}
	}
	return out, nil
}

func (s *pgStore) CreateInvoice(ctx context.Context, inv Invoice) (Invoice, error) {
	r, err := s.q.CreateInvoice(ctx, sqlcdb.CreateInvoiceParams{
		TenantID: inv.TenantID, CustomerID: inv.CustomerID, AmountCents: inv.AmountCents,
		Currency: inv.Currency, DueAt: sql.NullTime{Time: inv.DueAt, Valid: !inv.DueAt.IsZero()},
	})
	if err != nil {
		return Invoice{}, err
	}
	inv.ID, inv.Number, inv.CreatedAt, inv.Status = r.ID, r.Number, r.CreatedAt, StatusDraft
	return inv, nil
}

func (s *pgStore) MarkInvoicePaid(ctx context.Context, id, paymentID string) error {
	n, err := s.q.MarkInvoicePaid(ctx, sqlcdb.MarkInvoicePaidParams{ID: id, PaymentID: sql.NullString{String: paymentID, Valid: true}})
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrInvoiceNotPayable
	}
	return nil
}
"""),
  bash("cd %s && go build ./... 2>&1 | head -6" % ROOT, "Build"))
t(created("internal/repo/invoices.go"))
t("""internal/repo/invoices.go:33:26: cannot convert r (variable of struct type sqlcdb.InvoiceByIDRow) to type sqlcdb.Invoice
internal/repo/invoices.go:42:27: cannot convert r (variable of struct type sqlcdb.ListInvoicesRow) to type sqlcdb.Invoice
internal/repo/invoices.go:50:58: undefined: listParams""")
a("""Two expected failures:

1. The row structs can't be converted to `sqlcdb.Invoice` because the queries select 9 of the table's 12 columns (`paid_at`, `payment_id`, `status` compat column are left out), so the field sets differ. Simplest: select `sqlc.embed(invoices)`-equivalent columns… but that drags the generated compat column along. Instead I'll give `invoiceFromDB` the row types via small adapters.
2. `listParams` — I referenced the helper before writing it.

Actually there's a cleaner way for (1): sqlc reuses the model struct when a query selects **exactly** the table's columns (`SELECT *`). The compat `status` column is the only thing in the way, and sqlc doesn't see it anyway (that's why we got `column "status" does not exist`). Let me check what `sqlcdb.Invoice` contains.""",
  bash("cd %s && sed -n '/^type Invoice struct/,/^}/p' internal/repo/sqlcdb/models.go" % ROOT, "Inspect generated Invoice model"))
t("""type Invoice struct {
	ID          string
	TenantID    string
	CustomerID  string
	Number      int64
	State       InvoiceState
	AmountCents int64
	Currency    string
	DueAt       sql.NullTime
	CreatedAt   time.Time
	PaidAt      sql.NullTime
	PaymentID   sql.NullString
}""")
a("""11 columns, no `status` — sqlc ignores the generated column entirely, so the model is the "real" table. If the queries use `SELECT i.*`-style `sqlc.embed`, every method gets `sqlcdb.Invoice` directly, no adapters needed. But at runtime `SELECT *` would return **12** columns from Postgres (including `status`), and the generated `Scan` with 11 targets would fail: `sql: expected 12 destination arguments in Scan, not 11`.

So `SELECT *` is a trap here. Keeping explicit column lists and writing one adapter per row type is the safe choice; it's 3 short functions. I'll also write `listParams`.""",
  edit("internal/repo/convert.go", "func customerFromDB", """func invoiceFromByID(r sqlcdb.InvoiceByIDRow) Invoice {
	return invoiceFromDB(sqlcdb.Invoice{ID: r.ID, TenantID: r.TenantID, CustomerID: r.CustomerID, Number: r.Number,
		State: r.State, AmountCents: r.AmountCents, Currency: r.Currency, DueAt: r.DueAt, CreatedAt: r.CreatedAt})
}

func invoiceFromList(r sqlcdb.ListInvoicesRow) Invoice { return invoiceFromByID(sqlcdb.InvoiceByIDRow(r)) }

func listParams(tenantID string, f InvoiceFilter) sqlcdb.ListInvoicesParams {
	p := sqlcdb.ListInvoicesParams{TenantID: tenantID, Lim: int32(f.Limit)}
	if f.Status != nil {
		p.State = sqlcdb.NullInvoiceState{InvoiceState: sqlcdb.InvoiceState(*f.Status), Valid: true}
	}
	if f.From != nil {
		p.FromTs = sql.NullTime{Time: *f.From, Valid: true}
	}
	if f.To != nil {
		p.ToTs = sql.NullTime{Time: *f.To, Valid: true}
	}
	p.CustomerID = toNull(f.Customer)
	p.AfterID = toNull(f.After)
	return p
}

func customerFromDB"""),
  bash("cd %s && sed -i 's/invoiceFromDB(sqlcdb.Invoice(r)), nil/invoiceFromByID(r), nil/; s/out\\[i\\] = invoiceFromDB(sqlcdb.Invoice(r))/out[i] = invoiceFromList(r)/' internal/repo/invoices.go && goimports -w internal/repo/convert.go && go build ./... && go vet ./internal/repo && echo ok" % ROOT, "Use adapters, build, vet"))
t(edited("internal/repo/convert.go"))
t("ok")
a("""Builds and vets clean. `sqlcdb.InvoiceByIDRow(r)` works as a conversion because `ListInvoicesRow` has the identical field list — if someone adds a column to one query and not the other, that line stops compiling, which is exactly the check we want. Running the whole repo suite now:""",
  bash("cd %s && go test ./internal/repo -count=1 2>&1 | tail -12" % ROOT, "Run all repo tests"))
t("""--- FAIL: TestCreateInvoiceNumbers (0.03s)
    invoices_test.go:188: CreateInvoice: ERROR: null value in column "number" of relation "invoices" violates not-null constraint (SQLSTATE 23502)
FAIL
FAIL	github.com/acme/billing/internal/repo	4.412s""")
a("""`number` is NULL, so `nextval_per_tenant(tenant_id)` returned NULL: its `UPDATE tenant_counters ... RETURNING` matched no row. The test tenant has no counter row. The old code must have created it — checking the version on `main`:""",
  bash("cd %s && git show main:internal/repo/invoices.go | sed -n '/func (s \\*pgStore) CreateInvoice/,/^}/p'" % ROOT, "Old CreateInvoice"))
t("""func (s *pgStore) CreateInvoice(ctx context.Context, inv Invoice) (Invoice, error) {
	// first invoice of a tenant: make sure the counter row exists
	if _, err := s.db.ExecContext(ctx, `INSERT INTO tenant_counters (tenant_id) VALUES ($1) ON CONFLICT DO NOTHING`, inv.TenantID); err != nil {
		return Invoice{}, err
	}
	err := s.db.QueryRowContext(ctx, `
		INSERT INTO invoices (tenant_id, customer_id, number, state, amount_cents, currency, due_at)
		VALUES ($1, $2, nextval_per_tenant($1), 'draft', $3, $4, $5)
		RETURNING id, number, created_at`, ...""")
a("""There it is — a hidden second statement: the old code upserts the `tenant_counters` row before inserting. I missed it because I ported from the query list, not from reading every method top to bottom. Lesson noted; I'll diff each old method against its port before calling this done.

Adding the upsert as its own query and calling it first:""",
  edit("db/queries/invoices.sql", "-- name: CreateInvoice :one", "-- name: EnsureTenantCounter :exec\nINSERT INTO tenant_counters (tenant_id) VALUES (sqlc.arg(tenant_id)) ON CONFLICT DO NOTHING;\n\n-- name: CreateInvoice :one"),
  edit("internal/repo/invoices.go", "func (s *pgStore) CreateInvoice(ctx context.Context, inv Invoice) (Invoice, error) {\n", "func (s *pgStore) CreateInvoice(ctx context.Context, inv Invoice) (Invoice, error) {\n\t// first invoice of a tenant: make sure the counter row exists\n\tif err := s.q.EnsureTenantCounter(ctx, inv.TenantID); err != nil {\n\t\treturn Invoice{}, err\n\t}\n"),
  bash("cd %s && go tool sqlc generate && go test ./internal/repo -count=1 2>&1 | tail -3" % ROOT, "Regenerate and test"))
t(edited("db/queries/invoices.sql"))
t(edited("internal/repo/invoices.go"))
t("ok  	github.com/acme/billing/internal/repo	4.128s")
a("""All repo tests pass. As promised, a method-by-method review: for each of the 9 methods I compared the old and new statements, including side effects, error mapping and ordering.""",
  bash("cd %s && ./scripts/compare-sql.sh main HEAD internal/repo" % ROOT, "List statements per method, old vs new"))
t("""method                      old stmts  new stmts  notes
CustomerByID                1          1          ErrNotFound mapping kept
CreateCustomer              1          1
InvoiceByID                 1          1          ErrNotFound mapping kept
ListInvoices                1          1          status -> state (compat column no longer read)
ListInvoicesWithCustomer    1+N        1          N+1 replaced by JOIN
CreateInvoice               2          2          tenant counter upsert kept
MarkInvoicePaid             1          1          now only open/uncollectible; ErrInvoiceNotPayable
RecordPayment               1          1
PaymentsForInvoice          1          1          ORDER BY adds id tie-breaker; [] instead of nil""")
a("""Every difference in that table is intentional and was discussed above:

- `status` → `state` (the compat generated column is no longer read by the repo),
- the N+1 in `ListInvoicesWithCustomer` is gone,
- `MarkInvoicePaid` is stricter (no live callers yet),
- `PaymentsForInvoice` has deterministic order and returns `[]`.

Next: transactions. `InTx` currently wraps `*sql.Tx` in a new `pgStore`; that keeps working because `newPGStore(tx)` builds `sqlcdb.New(tx)`. But there's a subtlety worth checking in `tx.go`.""",
  read("internal/repo/tx.go"))
t("""     1	package repo
     2	
     3	func (s *pgStore) InTx(ctx context.Context, fn func(Store) error) error {
     4		db, ok := s.db.(*sql.DB)
     5		if !ok {
     6			return fn(s) // already in a transaction: join it
     7		}
     8		tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
     9		if err != nil {
    10			return err
    11		}
    12		defer tx.Rollback()
    13		if err := fn(newPGStore(tx)); err != nil {
    14			return err
    15		}
    16		return tx.Commit()
    17	}""")
a("""That's already correct: nested `InTx` joins the outer transaction, `defer tx.Rollback()` covers panics and errors, and it uses `newPGStore(tx)` since the earlier fix. `Queries.WithTx(tx)` would be equivalent to `sqlcdb.New(tx)` here, so there's nothing to gain from changing it. I'll leave `InTx` as is.

Now the cleanup: the old `dbtx` interface is duplicated by `sqlcdb.DBTX`. Replacing ours with theirs removes one more hand-maintained piece.""",
  edit("internal/repo/repo.go", "type dbtx interface {\n\tExecContext(context.Context, string, ...any) (sql.Result, error)\n\tQueryContext(context.Context, string, ...any) (*sql.Rows, error)\n\tQueryRowContext(context.Context, string, ...any) *sql.Row\n}", "type dbtx = sqlcdb.DBTX"),
  bash("cd %s && go build ./... && go vet ./... && grep -rn 'QueryContext\\|QueryRowContext\\|ExecContext' internal/repo --include=*.go | grep -v sqlcdb/ | grep -v _test.go" % ROOT, "Build, vet, and find leftover hand-written SQL"))
t(edited("internal/repo/repo.go"))
t("""internal/repo/tx.go:8:	tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})""")
a("""Builds and vets clean; the only remaining `database/sql` call in `internal/repo` outside generated code is `BeginTx`, which is expected. No hand-written SQL is left in the repo package.

Status: the core port is done. Remaining items:

1. CI: `sqlc diff` (generated code is committed and current) and `sqlc vet`.
2. A benchmark for the list page (the N+1 fix should show up).
3. Follow-up commit: `billing/payment.go` uses `repo.MarkInvoicePaid`.
4. Follow-up (separate PR): index `(tenant_id, state, created_at DESC, id DESC)`.""")
u("good progress. lunch, back in an hour. do the benchmark while I'm away, don't touch CI yet", gap=30)
a("""Running the list benchmark against the dev database copy, old (`main`) vs new, page size 50, biggest tenant.""",
  bash("cd %s && ./scripts/bench-compare.sh main HEAD -bench 'BenchmarkList' -count 6 2>&1 | tail -8" % ROOT, "Benchmark list methods, main vs HEAD"))
t("""goos: linux
goarch: amd64
                                  │    main     │               HEAD                │
                                  │   sec/op    │   sec/op     vs base              │
ListInvoices-8                      612.3µ ± 3%   598.7µ ± 2%        ~ (p=0.240 n=6)
ListInvoicesWithCustomer-8         14.871m ± 4%   1.093m ± 3%  -92.65% (p=0.002 n=6)
PaymentsForInvoice-8                201.4µ ± 2%   196.0µ ± 5%        ~ (p=0.394 n=6)""")
a("""Benchmark results (benchstat, 6 runs each):

| method | main | HEAD | change |
|---|---|---|---|
| `ListInvoices` | 612 µs | 599 µs | no significant difference |
| `ListInvoicesWithCustomer` | 14.9 ms | 1.09 ms | **−92.7%** (N+1 → JOIN) |
| `PaymentsForInvoice` | 201 µs | 196 µs | no significant difference |

So the sqlc layer itself costs nothing measurable, and the invoice list page gets ~13× faster from removing the N+1. In production the difference will be larger: the database is across the network (~0.4 ms RTT) instead of on localhost, so 51 round trips cost ~20 ms more than one.

I didn't touch CI. Waiting for you.""")
u("back. wow, 13x on the list page. ok now CI", gap=3480)

# --- 8. CI --------------------------------------------------------------------------
a("""Current CI workflow:""", read(".github/workflows/ci.yml"))
t("""     1	name: ci
     2	on: [push, pull_request]
     3	jobs:
     4	  test:
     5	    runs-on: ubuntu-latest
     6	    steps:
     7	      - uses: actions/checkout@v4
     8	      - uses: actions/setup-go@v5
     9	        with: { go-version-file: go.mod }
    10	      - run: go vet ./...
    11	      - run: go test -race ./...""")
a("""I'll add a `sqlc` job with two checks:

- `go tool sqlc diff` fails if the committed `internal/repo/sqlcdb` doesn't match what the queries and migrations generate (someone edited a query but forgot `sqlc generate`, or hand-edited generated code).
- `go tool sqlc vet` with the `sqlc/db-prepare` rule: it `PREPARE`s every query against a real Postgres, which catches things sqlc's own parser accepts but the server rejects (type mismatches, the generated-column surprise we hit today).

`vet` needs a database with the schema applied, so the job runs a Postgres service and applies the migrations first.""",
  edit("sqlc.yaml", 'version: "2"\nsql:\n  - engine: postgresql\n', 'version: "2"\nsql:\n  - engine: postgresql\n    database:\n      uri: ${VET_DATABASE_URL}\n    rules:\n      - sqlc/db-prepare\n'),
  edit(".github/workflows/ci.yml", "      - run: go test -race ./...", """      - run: go test -race ./...

  sqlc:
    runs-on: ubuntu-latest
    services:
      postgres:
        image: postgres:16
        env: { POSTGRES_PASSWORD: ci, POSTGRES_DB: billing }
        ports: ["5432:5432"]
        options: >-
          --health-cmd "pg_isready -U postgres" --health-interval 2s --health-retries 20
    env:
      VET_DATABASE_URL: postgres://postgres:ci@localhost:5432/billing?sslmode=disable
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with: { go-version-file: go.mod }
      - run: go tool sqlc diff
      - run: go tool migrate -path db/migrations -database "$VET_DATABASE_URL" up
      - run: go tool sqlc vet"""))
t(edited("sqlc.yaml"))
t(edited(".github/workflows/ci.yml"))
a("""Running the same steps locally first (with a throwaway Postgres container) so the first CI run isn't the test.""",
  bash("cd %s && export DOCKER_HOST=unix://$HOME/.colima/default/docker.sock && docker run -d --rm --name vetpg -e POSTGRES_PASSWORD=ci -e POSTGRES_DB=billing -p 55432:5432 postgres:16 >/dev/null && sleep 4 && export VET_DATABASE_URL='postgres://postgres:ci@localhost:55432/billing?sslmode=disable' && go tool sqlc diff && go tool migrate -path db/migrations -database \"$VET_DATABASE_URL\" up 2>&1 | tail -2; go tool sqlc vet; echo vet exit=$?; docker stop vetpg >/dev/null" % ROOT, "Run sqlc diff/vet locally"))
t("""go: no such tool "migrate"
vet: db/queries/customers.sql: CustomerByID: ERROR: relation "customers" does not exist (SQLSTATE 42P01)
vet exit=1""")
a("""`migrate` isn't a Go tool dependency in this module — developers have the binary installed separately, so the migrations never ran and `vet` found an empty database. Adding golang-migrate's CLI as a tool too (with the `postgres` build tag it needs), which also pins the version CI uses:""",
  bash("cd %s && go get -tool -tags postgres github.com/golang-migrate/migrate/v4/cmd/migrate@v4.18.3 2>&1 | tail -1 && grep -n '^tool' -A3 go.mod" % ROOT, "Add migrate as a tool"))
t("""go: added github.com/golang-migrate/migrate/v4 v4.18.3
tool (
	github.com/golang-migrate/migrate/v4/cmd/migrate
	github.com/sqlc-dev/sqlc/cmd/sqlc
)""")
a("""One catch: `go get -tool -tags` does **not** record build tags; `go tool migrate` builds without the `postgres` tag and fails with `unknown driver postgres (forgotten import?)`. The CI step needs `GOFLAGS=-tags=postgres`. Rerunning locally with that:""",
  bash("cd %s && export DOCKER_HOST=unix://$HOME/.colima/default/docker.sock GOFLAGS=-tags=postgres && docker run -d --rm --name vetpg -e POSTGRES_PASSWORD=ci -e POSTGRES_DB=billing -p 55432:5432 postgres:16 >/dev/null && sleep 4 && export VET_DATABASE_URL='postgres://postgres:ci@localhost:55432/billing?sslmode=disable' && go tool sqlc diff && go tool migrate -path db/migrations -database \"$VET_DATABASE_URL\" up 2>&1 | tail -1 && go tool sqlc vet; echo vet exit=$?; docker stop vetpg >/dev/null" % ROOT, "Retry with postgres tag"))
t("""42/u invoices_tenant_id (21.337ms)
vet exit=0""")
a("""All 42 migrations applied and `sqlc vet` passes: every query prepares against a real Postgres 16. Updating the workflow step with `GOFLAGS`, then pushing the branch to see it in CI.""",
  edit(".github/workflows/ci.yml", "      - run: go tool migrate -path db/migrations -database \"$VET_DATABASE_URL\" up", "      - run: go tool migrate -path db/migrations -database \"$VET_DATABASE_URL\" up\n        env: { GOFLAGS: -tags=postgres }"),
  bash("cd %s && git switch -c refactor/sqlc 2>/dev/null; git add -A && git commit -qm 'wip: sqlc' && git push -qu origin refactor/sqlc && gh run watch --exit-status $(gh run list --branch refactor/sqlc --limit 1 --json databaseId -q '.[0].databaseId') 2>&1 | tail -6" % ROOT, "Push and watch CI"))
t(edited(".github/workflows/ci.yml"))
t("""✓ refactor/sqlc ci · 18612047730
Triggered via push about 3 minutes ago

JOBS
✓ test in 2m11s (ID 52801339471)
✓ sqlc in 58s (ID 52801339502)""")
a("""Both jobs green on the first CI run: `test` (2m11s, unchanged) and the new `sqlc` job (58s).

To make sure the check actually catches something, a negative test: I'll rename a column in a query without regenerating, on a scratch branch.""",
  bash("cd %s && git switch -qc scratch/sqlc-negative && sed -i 's/SELECT id, tenant_id, email, name, vat_id, created_at/SELECT id, tenant_id, email, full_name, vat_id, created_at/' db/queries/customers.sql && go tool sqlc diff 2>&1 | head -4; git checkout -q -- db/queries && git switch -q refactor/sqlc && git branch -qD scratch/sqlc-negative" % ROOT, "Negative test for sqlc diff"))
t("""# package sqlcdb
db/queries/customers.sql:2:27: column "full_name" does not exist""")
a("""The check fails as intended (`column "full_name" does not exist`), before any code is even generated — this is precisely the class of bug that broke production twice this quarter. Scratch branch deleted.""")

# --- 9. the MarkInvoicePaid follow-up -------------------------------------------------
u("nice. now the MarkInvoicePaid follow-up, separate commit like we said")
a("""Looking at the caller in `billing/payment.go` to replace the inline SQL with `repo.MarkInvoicePaid`.""",
  read("internal/billing/payment.go", 70, 35))
t("""    70	func (s *Service) Settle(ctx context.Context, inv repo.Invoice, ev ProviderEvent) error {
    71		return s.store.InTx(ctx, func(st repo.Store) error {
    72			p, err := st.RecordPayment(ctx, repo.Payment{
    73				InvoiceID: inv.ID, Provider: ev.Provider, ProviderRef: ev.Ref,
    74				AmountCents: ev.AmountCents, Currency: ev.Currency, Status: repo.PaymentSucceeded,
    75			})
    76			if err != nil {
    77				return err
    78			}
    79			if ev.AmountCents < inv.AmountCents {
    80				return s.markPartiallyPaid(ctx, st, inv, p)
    81			}
    82			tx := st.(interface{ Tx() *sql.Tx }).Tx()
    83			// TODO(2026-05): move into repo once status->state is done
    84			if _, err := tx.ExecContext(ctx, `UPDATE invoices SET state = 'paid', paid_at = now(), payment_id = $2 WHERE id = $1`, inv.ID, p.ID); err != nil {
    85				return err
    86			}
    87			return s.events.Publish(ctx, InvoicePaid{InvoiceID: inv.ID, PaymentID: p.ID})
    88		})
    89	}""")
a("""The TODO from May confirms the intent. The current code reaches through the `Store` interface with a type assertion to get the raw `*sql.Tx` — that assertion would panic if `st` were ever a mock. Replacing it with `st.MarkInvoicePaid`.

Behaviour question: with the stricter `MarkInvoicePaid`, a duplicate provider webhook for an already-paid invoice now returns `ErrInvoiceNotPayable` instead of silently overwriting `payment_id`. The transaction then rolls back, which also undoes the duplicate `RecordPayment` row. That's better than today (today we'd record a second payment *and* repoint `payment_id`), but the webhook handler must treat it as success, otherwise the provider retries forever. Let me check how the handler maps errors.""",
  grep("Settle\\(", "internal"))
t("""internal/http/webhooks.go:64:	switch err := h.billing.Settle(r.Context(), inv, ev); {
internal/http/webhooks.go:65:	case err == nil, errors.Is(err, billing.ErrDuplicateEvent):
internal/http/webhooks.go:66:		w.WriteHeader(http.StatusOK)""")
a("""The handler already answers 200 for `billing.ErrDuplicateEvent`. I'll have `Settle` translate `repo.ErrInvoiceNotPayable` into `ErrDuplicateEvent` when the invoice is already paid — and into a real error otherwise (e.g. paying a `void` invoice should alert, not be swallowed).""",
  edit("internal/billing/payment.go", """		tx := st.(interface{ Tx() *sql.Tx }).Tx()
		// TODO(2026-05): move into repo once status->state is done
		if _, err := tx.ExecContext(ctx, `UPDATE invoices SET state = 'paid', paid_at = now(), payment_id = $2 WHERE id = $1`, inv.ID, p.ID); err != nil {
			return err
		}""", """		if err := st.MarkInvoicePaid(ctx, inv.ID, p.ID); errors.Is(err, repo.ErrInvoiceNotPayable) {
			cur, gerr := st.InvoiceByID(ctx, inv.ID)
			if gerr == nil && cur.Status == repo.StatusPaid {
				return ErrDuplicateEvent // rolls back the duplicate payment row
			}
			return fmt.Errorf("settle invoice %s in state %s: %w", inv.ID, cur.Status, err)
		} else if err != nil {
			return err
		}"""),
  bash("cd %s && go build ./... && go test ./internal/billing ./internal/http -count=1 2>&1 | tail -4" % ROOT, "Build and test billing + http"))
t(edited("internal/billing/payment.go"))
t("""ok  	github.com/acme/billing/internal/billing	1.877s
ok  	github.com/acme/billing/internal/http	0.944s""")
a("""Tests pass. I added two cases to `payment_test.go` so the new behaviour is pinned down:

- `TestSettleDuplicateWebhook`: second `Settle` for the same invoice → `ErrDuplicateEvent`, exactly one payment row, `payment_id` unchanged.
- `TestSettleVoidInvoice`: `Settle` on a void invoice → error mentioning `state void`, no payment row.""",
  bash("cd %s && go test ./internal/billing -run 'TestSettle' -count=1 -v 2>&1 | grep -E '^(---|ok)'" % ROOT, "Run the new settle tests"))
t("""--- PASS: TestSettle (0.02s)
--- PASS: TestSettleDuplicateWebhook (0.03s)
--- PASS: TestSettleVoidInvoice (0.01s)
--- PASS: TestSettlePartial (0.02s)
ok  	github.com/acme/billing/internal/billing	1.402s""")

# --- 10. commits and rebase ------------------------------------------------------------
u("ok let's turn the wip commit into proper commits. then rebase on main, I think Tomás merged the pgx upgrade this morning")
a("""Splitting the `wip: sqlc` commit into reviewable steps. Proposed history:

1. `db: make migrations 000017 and 000030 parseable by sqlc (no schema change)` — with the schema-diff evidence in the body
2. `repo: generate queries with sqlc; port customers and payments`
3. `repo: port invoices to sqlc; replace N+1 in ListInvoicesWithCustomer with a JOIN`
4. `ci: sqlc diff and sqlc vet against Postgres 16`
5. `billing: settle through repo.MarkInvoicePaid; duplicate webhooks no longer repoint payment_id`

Doing it with a soft reset and path-limited adds, since the changes separate cleanly by file.""",
  bash("""cd %s && git reset -q --soft HEAD~1 && git reset -q && \\
git add db/migrations/000017_currency_check.up.sql db/migrations/000030_invoice_number_fn.up.sql && git commit -qF /tmp/msg1.txt && \\
git add sqlc.yaml go.mod go.sum db/queries/customers.sql db/queries/payments.sql internal/repo/sqlcdb internal/repo/null.go internal/repo/customers.go internal/repo/payments.go internal/repo/payments_test.go internal/repo/repo.go internal/repo/tx.go CHANGELOG.md && git commit -qm 'repo: generate queries with sqlc; port customers and payments' && \\
git add db/queries/invoices.sql internal/repo/invoices.go internal/repo/convert.go && git commit -qm 'repo: port invoices to sqlc; replace N+1 in ListInvoicesWithCustomer with a JOIN' && \\
git add .github/workflows/ci.yml && git commit -qm 'ci: sqlc diff and sqlc vet against Postgres 16' && \\
git add internal/billing && git commit -qm 'billing: settle through repo.MarkInvoicePaid; duplicate webhooks no longer repoint payment_id' && \\
git status --short && git log --oneline main..HEAD""" % ROOT, "Split into five commits"))
t("""be41f07 billing: settle through repo.MarkInvoicePaid; duplicate webhooks no longer repoint payment_id
93c0d1a ci: sqlc diff and sqlc vet against Postgres 16
5a7e2c8 repo: port invoices to sqlc; replace N+1 in ListInvoicesWithCustomer with a JOIN
0f3b9e6 repo: generate queries with sqlc; port customers and payments
d2a61c4 db: make migrations 000017 and 000030 parseable by sqlc (no schema change)""")
a("""Five commits, clean working tree. Before rebasing I'll check that every commit builds on its own — `git bisect` later depends on it, and commit 2 changes `repo.go` in a way commit 3 relies on.""",
  bash("cd %s && git rebase -q --exec 'go build ./... && go vet ./internal/...' main && echo 'every commit builds'" % ROOT, "Build each commit"))
t("""every commit builds""")
a("""All five build individually. Now fetching and rebasing onto the updated `main`.""",
  bash("cd %s && git fetch -q origin && git log --oneline HEAD..origin/main && git rebase origin/main 2>&1 | tail -4" % ROOT, "Rebase onto origin/main"))
t("""7d19a3e deps: pgx v5.7.1 -> v5.7.4, x/crypto v0.42.0
c0e88b2 http: request id middleware
Auto-merging go.mod
CONFLICT (content): Merge conflict in go.mod
CONFLICT (content): Merge conflict in go.sum
error: could not apply 0f3b9e6... repo: generate queries with sqlc; port customers and payments""")
a("""As you expected: the pgx upgrade on `main` conflicts with my `go.mod` changes (the tool lines and sqlc's dependencies). For `go.mod`/`go.sum` the reliable resolution is not hand-merging lines, but: take `main`'s versions, re-add the tool, and let `go mod tidy` recompute `go.sum`.""",
  bash("cd %s && git checkout --theirs go.mod go.sum 2>/dev/null; git checkout origin/main -- go.mod go.sum && go get -tool github.com/sqlc-dev/sqlc/cmd/sqlc@v1.30.0 && go mod tidy && grep -E 'jackc/pgx|sqlc-dev' go.mod && go build ./... && git add go.mod go.sum && GIT_EDITOR=true git rebase --continue 2>&1 | tail -3" % ROOT, "Resolve go.mod from main + re-add tool"))
t("""	github.com/jackc/pgx/v5 v5.7.4
	github.com/sqlc-dev/sqlc v1.30.0 // indirect
	github.com/sqlc-dev/sqlc/cmd/sqlc
CONFLICT (content): Merge conflict in go.mod
error: could not apply 93c0d1a... ci: sqlc diff and sqlc vet against Postgres 16""")
a("""Commit 2 resolved (pgx 5.7.4 from `main`, sqlc tool re-added). The CI commit conflicts in `go.mod` as well, because that's where I added the `migrate` tool. Same approach:""",
  bash("cd %s && git checkout HEAD -- go.mod go.sum && go get -tool -tags postgres github.com/golang-migrate/migrate/v4/cmd/migrate@v4.18.3 && go mod tidy && go build ./... && git add go.mod go.sum && GIT_EDITOR=true git rebase --continue 2>&1 | tail -2 && git log --oneline -7" % ROOT, "Resolve second go.mod conflict"))
t("""Successfully rebased and updated refs/heads/refactor/sqlc.
e83b0d5 billing: settle through repo.MarkInvoicePaid; duplicate webhooks no longer repoint payment_id
4b7f2a9 ci: sqlc diff and sqlc vet against Postgres 16
a19d6e3 repo: port invoices to sqlc; replace N+1 in ListInvoicesWithCustomer with a JOIN
6c02f8b repo: generate queries with sqlc; port customers and payments
d77e0a1 db: make migrations 000017 and 000030 parseable by sqlc (no schema change)
7d19a3e deps: pgx v5.7.1 -> v5.7.4, x/crypto v0.42.0
c0e88b2 http: request id middleware""")
a("""Rebased onto `origin/main`. Since the pgx version changed underneath, full verification: every commit builds, the full test suite, and `sqlc diff` (generated code embeds no driver version, but better to check).""",
  bash("cd %s && export DOCKER_HOST=unix://$HOME/.colima/default/docker.sock TESTCONTAINERS_RYUK_DISABLED=true && git rebase -q --exec 'go build ./...' origin/main && go tool sqlc diff && go test -race ./... 2>&1 | tail -6" % ROOT, "Verify after rebase"))
t("""ok  	github.com/acme/billing/cmd/billing	0.318s
ok  	github.com/acme/billing/internal/billing	2.904s
ok  	github.com/acme/billing/internal/http	1.561s
ok  	github.com/acme/billing/internal/repo	6.277s
?   	github.com/acme/billing/internal/repo/sqlcdb	[no test files]""")
a("""Everything green on top of the new `main` with `-race`. Pushing with `--force-with-lease` since the branch history changed.""",
  bash("cd %s && git push --force-with-lease -q origin refactor/sqlc && gh pr create --fill-first --draft --title 'billing: replace hand-written SQL with sqlc' --body-file /tmp/pr-body.md 2>&1 | tail -1" % ROOT, "Push and open draft PR"))
t("""https://github.com/acme/billing/pull/418""")
a("""Draft PR opened: **acme/billing#418**, five commits.

Summary of the whole session:

**Done**
- sqlc v1.30.0 (pinned as a Go tool) generating `database/sql` code from the existing golang-migrate migrations; `repo.Store` and all handlers unchanged.
- Two legacy migrations made parseable (`000017`, `000030`), proven schema-neutral by diffing `pg_dump` from both versions.
- All 9 repo methods ported; hand-written SQL and scanning removed from `internal/repo`.
- N+1 in `ListInvoicesWithCustomer` replaced with a JOIN: **14.9 ms → 1.09 ms** per page.
- Found and fixed along the way: missing `rows.Close()`/`rows.Err()` in `PaymentsForInvoice`, non-deterministic payment order, `repo.MarkInvoicePaid` writing a generated column (dead code, now used by `Settle`), duplicate webhooks repointing `payment_id`.
- CI: `sqlc diff` + `sqlc vet` (`db-prepare` against Postgres 16), verified with a negative test.

**Behaviour changes** (in CHANGELOG): `payments: []` instead of `null`; duplicate provider webhooks no longer create a second payment row.

**Follow-ups** (not in this PR)
- Index `invoices (tenant_id, state, created_at DESC, id DESC)` for rare-state filters (212 ms today on the biggest tenant); needs a non-transactional migration for `CREATE INDEX CONCURRENTLY`.
- Drop the compat `invoices.status` generated column once nothing reads it (check the reporting views first).""")
u("this is great. I'll ask Tomás to review. one last thing: what's the migration story for the compat column drop, can it be a normal migration?")
a("""Mostly yes, with one precaution. `ALTER TABLE invoices DROP COLUMN status` is a metadata-only change in Postgres (no table rewrite), so it's fast — but it takes an `ACCESS EXCLUSIVE` lock, and if a long-running query holds a lock on `invoices`, the `ALTER` waits **and blocks every query queued behind it**. That's how a 1 ms migration causes an outage.

So the migration should set a lock timeout and be retried by the deploy if it can't get the lock:

```sql
-- 000043_drop_invoices_status_compat.up.sql
SET lock_timeout = '3s';
ALTER TABLE invoices DROP COLUMN IF EXISTS status;
```

```sql
-- 000043_drop_invoices_status_compat.down.sql
ALTER TABLE invoices ADD COLUMN status text GENERATED ALWAYS AS (state::text) STORED;
```

Note the down migration *does* rewrite the table (a stored generated column must be computed for every row), so rolling back is slow on 2M+ rows — acceptable, since we'd only do it in an emergency. Before merging 000043, grep the reporting repo and Metabase questions for `invoices.status`; the application no longer reads it after this PR.""")
u("perfect, thanks. that's it for today")
a("""You're welcome. Everything is pushed; the only local leftovers are `/tmp/msg1.txt` and `/tmp/pr-body.md`, which I used for commit and PR text. Good luck with the review.""")

# --- emit ---------------------------------------------------------------------------
def emit(path):
    rnd = random.Random(SID)
    ts = dt.datetime.strptime(START, "%Y-%m-%dT%H:%M:%SZ")
    pending, n, out = [], 0, []
    for kind, text, extra in BEATS:
        if kind == "u":
            ts += dt.timedelta(seconds=extra or rnd.randint(30, 200))
            rec = {"role": "user", "content": text}
        elif kind == "a":
            ts += dt.timedelta(seconds=rnd.randint(5, 45))
            rec = {"role": "assistant", "content": text}
            if extra:
                calls = []
                for name, args in extra:
                    n += 1
                    cid = "toolu_01" + hashlib.sha1(("%s/%d" % (SID, n)).encode()).hexdigest()[:22]
                    calls.append({"id": cid, "type": "function",
                                  "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}})
                    pending.append((cid, name))
                rec["tool_calls"] = calls
                rec["finish_reason"] = "tool_calls"
            else:
                rec["finish_reason"] = "stop"
            rec["token_count"] = len(text.encode()) // 4 + rnd.randint(8, 60)
        else:
            ts += dt.timedelta(seconds=rnd.randint(1, 12))
            cid, name = pending.pop(0)
            rec = {"role": "tool", "content": text, "tool_call_id": cid, "tool_name": name}
        rec = {"session_id": SID, **rec, "timestamp": ts.strftime("%Y-%m-%dT%H:%M:%SZ")}
        if not out:
            rec = {"session_id": SID, "source": SOURCE, "model": MODEL, "title": TITLE, **rec}
        out.append(rec)
    if pending:
        raise SystemExit("unanswered tool calls: %r" % pending)
    with open(path, "w", encoding="utf-8") as f:
        for rec in out:
            f.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")
    print("%s: %d messages" % (path, len(out)))

if __name__ == "__main__":
    emit(os.path.join(os.path.dirname(os.path.abspath(__file__)), "30-long-refactor.jsonl"))
