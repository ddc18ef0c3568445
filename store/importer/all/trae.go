package all

import _ "github.com/recall-dev/recall/store/importer/trae" // registers the trae-cli source
