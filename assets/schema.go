package assets

import _ "embed"

//go:embed schema/session_search.schema.json
var sessionSearchSchema []byte

// SessionSearchSchema returns the JSON Schema of the session_search answers
// (`recall search --json` and the MCP tool), as `recall search --schema` prints it.
func SessionSearchSchema() []byte { return sessionSearchSchema }
