package all

import _ "github.com/recall-dev/recall/store/importer/codex" // registers the codex source
