package all

import _ "github.com/recall-dev/recall/store/importer/opencode" // registers the opencode and kilo sources
