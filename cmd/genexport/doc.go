// Command genexport writes a synthetic DynamoDB full export of an orders
// table (internal/exportgen) for `ddbsql --data`:
//
//	go run ./cmd/genexport -items 1000000 -files 8 -o /tmp/orders
//	ddbsql --data orders=/tmp/orders --key PK,SK --allow-scan \
//	  -e "SELECT status, COUNT(*), SUM(total) FROM orders GROUP BY status"
//
// It prints the export's folder and, per status, the count and the sum of
// total that the query above must answer. The same flags write the same
// bytes.
//
// Phase: a developer tool; it imports internal/exportgen only.
package main
