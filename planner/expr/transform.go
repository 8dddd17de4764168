package expr

// Transform rebuilds e bottom-up after offering each node to fn first: when
// fn returns done=true its result replaces the node and the node's children
// are not visited. Errors stop the walk.
func Transform(e Expr, fn func(Expr) (out Expr, done bool, err error)) (Expr, error) {
	if e == nil {
		return nil, nil
	}
	out, done, err := fn(e)
	if err != nil || done {
		return out, err
	}
	sub := func(x Expr) (Expr, error) { return Transform(x, fn) }
	switch n := e.(type) {
	case Binary:
		if n.L, err = sub(n.L); err != nil {
			return nil, err
		}
		n.R, err = sub(n.R)
		return n, err
	case Unary:
		n.X, err = sub(n.X)
		return n, err
	case In:
		if n.X, err = sub(n.X); err != nil {
			return nil, err
		}
		list := make([]Expr, len(n.List))
		for i, x := range n.List {
			if list[i], err = sub(x); err != nil {
				return nil, err
			}
		}
		n.List = list
		return n, nil
	case Between:
		if n.X, err = sub(n.X); err != nil {
			return nil, err
		}
		if n.Lo, err = sub(n.Lo); err != nil {
			return nil, err
		}
		n.Hi, err = sub(n.Hi)
		return n, err
	case Like:
		if n.X, err = sub(n.X); err != nil {
			return nil, err
		}
		n.Pattern, err = sub(n.Pattern)
		return n, err
	case IsNull:
		n.X, err = sub(n.X)
		return n, err
	case Func:
		args := make([]Expr, len(n.Args))
		for i, x := range n.Args {
			if args[i], err = sub(x); err != nil {
				return nil, err
			}
		}
		n.Args = args
		return n, nil
	case Case:
		if n.Operand, err = sub(n.Operand); err != nil {
			return nil, err
		}
		whens := make([]When, len(n.Whens))
		for i, w := range n.Whens {
			if whens[i].Cond, err = sub(w.Cond); err != nil {
				return nil, err
			}
			if whens[i].Result, err = sub(w.Result); err != nil {
				return nil, err
			}
		}
		n.Whens = whens
		n.Else, err = sub(n.Else)
		return n, err
	case Cast:
		n.X, err = sub(n.X)
		return n, err
	case Aggregate:
		n.Arg, err = sub(n.Arg)
		return n, err
	case Window:
		return transformWindow(n, sub)
	case Subquery:
		if n.X, err = sub(n.X); err != nil {
			return nil, err
		}
		outer := make([]Expr, len(n.Outer))
		for i, x := range n.Outer {
			if outer[i], err = sub(x); err != nil {
				return nil, err
			}
		}
		n.Outer = outer
		return n, nil
	}
	return e, nil
}
