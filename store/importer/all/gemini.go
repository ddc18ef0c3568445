package all

import _ "github.com/recall-dev/recall/store/importer/gemini" // registers the gemini source
