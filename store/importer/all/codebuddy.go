package all

import _ "github.com/recall-dev/recall/store/importer/codebuddy" // registers the codebuddy source
