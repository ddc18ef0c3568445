package all

import _ "github.com/recall-dev/recall/store/importer/zed" // registers the zed source
