//! `--query` through a pipe (as every test runs): one result per line, strings bare,
//! the rest compact JSON, whatever the format; `-o json` keeps JSON documents.

mod common;

use common::sandbox;

#[test]
fn query_results_print_one_a_line_strings_bare() {
    let ids = sandbox(&["cloud", "list", "--query", ".[].id"]).ok();
    let lines: Vec<&str> = ids.stdout.lines().collect();
    assert!(lines.len() > 2, "{}", ids.stdout);
    for line in &lines {
        assert!(
            line.len() == 36 && !line.contains('"'),
            "not a bare id: {line:?}"
        );
    }
    // The same in every format that was not asked to be JSON or YAML.
    for format in ["table", "csv", "tsv"] {
        let run = sandbox(&["cloud", "list", "-o", format, "--query", ".[].id"]).ok();
        assert_eq!(run.stdout, ids.stdout, "-o {format}");
    }

    let records = sandbox(&["vps", "list", "--query", ".[:2][] | {id, name}"]).ok();
    assert_eq!(
        records.stdout,
        "{\"id\":\"100001\",\"name\":\"vps100001\"}\n{\"id\":\"100002\",\"name\":\"vps100002\"}\n"
    );
    let numbers = sandbox(&["vps", "list", "--query", "length, (.[0].id | length)"]).ok();
    assert_eq!(numbers.stdout, "20\n6\n");
    let array = sandbox(&["vps", "list", "--query", "[.[:2][].id]"]).ok();
    assert_eq!(array.stdout, "[\"100001\",\"100002\"]\n");
}

#[test]
fn query_with_output_json_prints_json_documents() {
    let run = sandbox(&["vps", "list", "-o", "json", "--query", ".[0] | {id, name}"]).ok();
    assert_eq!(
        run.stdout,
        "{\n  \"id\": \"100001\",\n  \"name\": \"vps100001\"\n}\n"
    );
    let ids = sandbox(&["vps", "list", "-o", "json", "--query", ".[:2][].id"]).ok();
    assert_eq!(ids.stdout, "\"100001\"\n\"100002\"\n");
    let yaml = sandbox(&["vps", "list", "-o", "yaml", "--query", ".[0].id"]).ok();
    assert_eq!(yaml.stdout, "'100001'\n");
}
