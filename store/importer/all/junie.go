package all

import _ "github.com/recall-dev/recall/store/importer/junie" // registers the junie source
