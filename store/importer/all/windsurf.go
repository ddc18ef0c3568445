package all

import _ "github.com/recall-dev/recall/store/importer/windsurf" // registers the windsurf source (found, never read)
