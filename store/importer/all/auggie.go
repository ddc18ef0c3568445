package all

import _ "github.com/recall-dev/recall/store/importer/auggie" // registers the auggie source
