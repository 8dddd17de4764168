package ddbexpr

// TranslatedConditionFuncs lists the functions conditionFuncs translates,
// for the external tests.
func TranslatedConditionFuncs() []string {
	names := make([]string, 0, len(conditionFuncs))
	for name := range conditionFuncs {
		names = append(names, name)
	}
	return names
}
