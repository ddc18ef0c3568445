package all

import _ "github.com/recall-dev/recall/store/importer/kimicode" // registers the kimi-code source
