package all

import _ "github.com/recall-dev/recall/store/importer/claudeai" // registers the claude-ai source
