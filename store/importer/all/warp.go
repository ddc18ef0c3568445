package all

import _ "github.com/recall-dev/recall/store/importer/warp" // registers the warp source
