// Command promql-metrics prints the metric names each PromQL expression selects, as Prometheus' own parser reads it.
//
// Input (stdin): one JSON string per line, each a PromQL expression. Output (stdout): one JSON object per input line,
// {"expr": ..., "metrics": [...]} or {"expr": ..., "error": ...}. The chart's tests use it to check that every alert
// and dashboard query names only metrics the operator or the pinned SGLang release exports.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
)

// maxLine bounds one input line: an expression longer than this is not a dashboard query.
const maxLine = 1 << 20

type result struct {
	Expr    string   `json:"expr"`
	Metrics []string `json:"metrics,omitempty"`
	Error   string   `json:"error,omitempty"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64*1024), maxLine)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var expr string
		if err := json.Unmarshal(in.Bytes(), &expr); err != nil {
			fmt.Fprintf(os.Stderr, "input line is not a JSON string: %v\n", err)
			os.Exit(2)
		}
		if err := out.Encode(parse(expr)); err != nil {
			fmt.Fprintf(os.Stderr, "cannot write: %v\n", err)
			os.Exit(2)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintf(os.Stderr, "cannot read stdin: %v\n", err)
		os.Exit(2)
	}
}

func parse(expr string) result {
	ast, err := parser.ParseExpr(expr)
	if err != nil {
		return result{Expr: expr, Error: err.Error()}
	}
	names := map[string]bool{}
	var unnamed error
	parser.Inspect(ast, func(node parser.Node, _ []parser.Node) error {
		selector, ok := node.(*parser.VectorSelector)
		if !ok {
			return nil
		}
		if selector.Name != "" {
			names[selector.Name] = true
			return nil
		}
		for _, matcher := range selector.LabelMatchers {
			if matcher.Name == labels.MetricName {
				if matcher.Type != labels.MatchEqual {
					unnamed = fmt.Errorf("metric name matched by %s, not by equality: %s", matcher.Type, selector)
					return nil
				}
				names[matcher.Value] = true
			}
		}
		return nil
	})
	if unnamed != nil {
		return result{Expr: expr, Error: unnamed.Error()}
	}
	sorted := make([]string, 0, len(names))
	for name := range names {
		sorted = append(sorted, name)
	}
	sort.Strings(sorted)
	return result{Expr: expr, Metrics: sorted}
}
