package all

import _ "github.com/recall-dev/recall/store/importer/cline" // registers the cline source
