package all

import _ "github.com/recall-dev/recall/store/importer/roo" // registers the roo-code source
