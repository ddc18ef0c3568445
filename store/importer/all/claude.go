package all

import _ "github.com/recall-dev/recall/store/importer/claude" // registers the claude source
