package all

import _ "github.com/recall-dev/recall/store/importer/hermes" // registers the hermes source
