// Branches a Pi session in place, as /tree does: moves the leaf back to the first assistant reply and
// prompts from there, so the file holds two children of that entry. Run by drive.sh with the
// package's own SessionManager and createAgentSession (argv: package dir, session file, prompt).
const [pkg, file, prompt] = process.argv.slice(2);
const pi = await import(pkg + "/dist/index.js");
const sm = pi.SessionManager.open(file);
const firstReply = sm.getEntries().find((e) => e.type === "message" && e.message.role === "assistant");
sm.branch(firstReply.id);
const { session } = await pi.createAgentSession({ sessionManager: sm });
await session.prompt(prompt);
process.exit(0);
