#!/usr/bin/env python3
"""Validates a SARIF log against the SARIF 2.1.0 JSON schema vendored beside
this script (sarif-schema-2.1.0.json, from the OASIS sarif-spec repository) and
prints one line per result, for FileCheck: LEVEL RULE FILE:LINE:COL and the
witness; before them, each invocation's executionSuccessful and its tool
execution notifications (LEVEL FILE: MESSAGE). Usage: sarif_check.py LOG.sarif"""
import json
import os
import sys

import jsonschema

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "sarif-schema-2.1.0.json")) as f:
    schema = json.load(f)
with open(sys.argv[1]) as f:
    log = json.load(f)
jsonschema.Draft7Validator.check_schema(schema)
errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(log), key=str)
for e in errors:
    print("invalid: %s at %s" % (e.message, "/".join(str(p) for p in e.absolute_path)))
if errors:
    sys.exit(1)
print("valid SARIF %s" % log["version"])
for run in log["runs"]:
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    for inv in run.get("invocations", []):
        print("invocation executionSuccessful=%s" % str(inv["executionSuccessful"]).lower())
        for n in inv.get("toolExecutionNotifications", []):
            uri = n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            print("notification %s %s: %s" % (n["level"], os.path.basename(uri), n["message"]["text"]))
    for r in run.get("results", []):
        assert rules[r["ruleIndex"]] == r["ruleId"], "ruleIndex does not match ruleId"
        loc = r["locations"][0]["physicalLocation"]
        print("%s %s %s:%d:%d %s" % (r["level"], r["ruleId"], os.path.basename(loc["artifactLocation"]["uri"]),
                                     loc["region"]["startLine"], loc["region"]["startColumn"],
                                     r.get("properties", {}).get("witness", "")))
        for rel in r.get("relatedLocations", []):
            rl = rel["physicalLocation"]["region"]
            print("  related %d:%d %s" % (rl["startLine"], rl["startColumn"], rel["message"]["text"]))
