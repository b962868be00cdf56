/** A Go file two lazy tests merge a bare method into: a method and a function of the same name (`Int`). */
export const GO = `package flag

func (f *FlagSet) Int(name string, value int, usage string) *int {
	p := new(int)
	f.IntVar(p, name, value, usage)
	return p
}

func Int(name string, value int, usage string) *int {
	return CommandLine.IntP(name, "", value, usage)
}
`;
