package all

import _ "github.com/recall-dev/recall/store/importer/vibe" // registers the mistral-vibe source
