package importer

// PathRequired is implemented by sources with no location on this machine
// to look in: a data export (ChatGPT, Claude.ai) is a zip the person
// downloaded wherever they chose. `recall import` asks for the PATH instead
// of finding nothing, and `import all` and `watch` pass them over (their
// DefaultPaths is empty).
type PathRequired interface {
	// PathHint says what to name, for the usage error: "the export's zip
	// or its conversations.json".
	PathHint() string
}
