/* prefix.test's counter-example: a file of src/scan whose globals are not all
 * named after it (scan_bad_...). prefix_check.py must name the other two. */
int scan_bad;          /* the file's own name: allowed */
int scan_bad_counter;  /* allowed */
int counter;           /* no prefix */
static int hidden;     /* file scope: not a global symbol */
int scan_other_total;  /* another file's prefix */
int scan_bad_get(void) { return hidden + counter + scan_other_total; }
