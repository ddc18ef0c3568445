package all

import _ "github.com/recall-dev/recall/store/importer/kiro" // registers the kiro source
