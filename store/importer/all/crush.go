package all

import _ "github.com/recall-dev/recall/store/importer/crush" // registers the crush source
