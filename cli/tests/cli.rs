//! The `accelscope` binary from outside: JSON shapes, sources on every figure, clear errors.

use std::process::Command;

use serde_json::{json, Value};

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_accelscope"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn json(args: &[&str]) -> Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).expect("valid JSON")
}

/// Every object with a `value` must also carry a source and an estimate flag.
fn check_sourced(v: &Value, path: &str, count: &mut usize) {
    match v {
        Value::Object(m) if m.contains_key("value") => {
            *count += 1;
            assert!(
                m.get("estimate").is_some_and(Value::is_boolean),
                "{path}: estimate flag"
            );
            let src = &m["source"];
            assert_eq!(src["kind"], "cited", "{path}");
            for k in ["title", "url", "date"] {
                assert!(
                    src[k].as_str().is_some_and(|s| !s.is_empty()),
                    "{path}: source {k}"
                );
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                check_sourced(x, &format!("{path}.{k}"), count);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                check_sourced(x, &format!("{path}[{i}]"), count);
            }
        }
        _ => {}
    }
}

#[test]
fn chip_json_has_every_figure_with_its_source() {
    let v = json(&["chip", "trn2", "--json"]);
    let mut n = 0;
    check_sourced(&v, "trn2", &mut n);
    assert!(n >= 15, "only {n} sourced figures");
    // AWS Neuron Trainium2 architecture page: 667 TFLOP/s BF16 dense, 2.9 TB/s, 96 GiB.
    assert_eq!(v["peaks"]["bf16"]["dense_flop_per_s"]["value"], 667e12);
    assert_eq!(v["hbm_bandwidth_bytes_per_s"]["value"], 2.9e12);
    assert_eq!(
        v["hbm_capacity_bytes"]["value"],
        96.0 * 1024.0 * 1024.0 * 1024.0
    );
    assert_eq!(v["power_w"]["estimate"], true);
}

#[test]
fn catalog_lists_every_preset_with_keys_in_si_units() {
    let v = json(&["chips", "--json"]);
    let ids: Vec<&str> = v["chips"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "trn1", "trn2", "trn3", "h100-sxm", "h200", "b200", "gb200", "gb300", "b300", "rubin",
            "mi300x", "mi325x", "mi355x", "mi455x", "tpu-v6e", "tpu-v7", "tpu-v5p"
        ]
    );
    let mut n = 0;
    check_sourced(&v["chips"], "chips", &mut n);
    assert!(n > 100);
    for c in v["chips"].as_array().unwrap() {
        for key in ["hbm_capacity_bytes", "hbm_bandwidth_bytes_per_s", "power_w"] {
            assert!(c.get(key).is_some(), "{}: {key}", c["id"]);
        }
    }
}

#[test]
fn roofline_reports_ridge_and_attainable() {
    // H100 SXM: 989.4 TFLOP/s BF16 dense over 3.35 TB/s is a ridge of 295 FLOP/byte.
    let v = json(&[
        "roofline",
        "--chip",
        "h100-sxm",
        "--dtype",
        "bf16",
        "--intensity",
        "100",
        "--json",
    ]);
    let ridge = v["ridge_flop_per_byte"].as_f64().unwrap();
    assert!((ridge - 295.34).abs() < 0.01, "{ridge}");
    assert_eq!(v["attainable_flop_per_s"], 335e12);
    assert_eq!(v["bound"], "memory");
    let v = json(&[
        "roofline",
        "--chip",
        "trn2",
        "--dtype",
        "bf16",
        "--op",
        "gemm:8192,8192,8192",
        "--json",
    ]);
    assert_eq!(v["bound"], "compute");
    assert_eq!(v["attainable_flop_per_s"], 667e12);
    assert_eq!(v["operation"]["flop"], 2.0 * 8192f64.powi(3));
}

fn check_error(args: &[&str], needle: &str) {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?} exits 2");
    assert!(out.is_empty(), "{args:?} prints nothing on stdout");
    assert!(
        err.contains(needle),
        "{args:?}: '{err}' should mention '{needle}'"
    );
    assert!(!err.contains("panicked"), "{args:?} panicked");
}

#[test]
fn bad_input_gets_a_clear_error_and_exit_code_2() {
    check_error(&["chip", "trn9", "--json"], "valid: trn1, trn2");
    check_error(
        &["roofline", "--chip", "trn2", "--dtype", "fp7"],
        "valid: fp64",
    );
    check_error(
        &["roofline", "--chip", "nope", "--dtype", "bf16"],
        "unknown chip 'nope'",
    );
    check_error(
        &["roofline", "--chip", "h100-sxm", "--dtype", "fp4"],
        "no dense FP4",
    );
    check_error(
        &[
            "roofline",
            "--chip",
            "trn2",
            "--dtype",
            "bf16",
            "--intensity",
            "-3",
        ],
        "positive",
    );
    check_error(
        &[
            "roofline", "--chip", "trn2", "--dtype", "bf16", "--op", "gemm:1,2",
        ],
        "M,N,K",
    );
    // Missing flags, unknown flags and commands are clap's to refuse, in clap's words.
    check_error(
        &["roofline", "--dtype", "bf16"],
        "required arguments were not provided:\n  --chip <ID>",
    );
    check_error(
        &["chips", "--frobnicate"],
        "unexpected argument '--frobnicate'",
    );
    check_error(&["teleport"], "unrecognized subcommand 'teleport'");
    check_error(&[], "Usage: accelscope <COMMAND>");
    // Our own checks' messages read as every other bad input's.
    let (_, _, err) = run(&[
        "roofline",
        "--chip",
        "trn2",
        "--dtype",
        "bf16",
        "--intensity=-3",
    ]);
    assert_eq!(
        err.trim_end(),
        "accelscope: --intensity must be a positive number of FLOP per byte, got '-3'"
    );
}

#[test]
fn help_lists_every_command_and_exits_0() {
    let (code, out, err) = run(&["--help"]);
    assert_eq!(code, 0, "{err}");
    for cmd in [
        "chips",
        "chip",
        "roofline",
        "systems",
        "topology",
        "collective",
        "calibration",
        "keys",
        "claims",
        "prices",
        "train",
        "infer",
        "serve-curve",
        "model",
        "eval",
        "compare",
        "sweep",
        "scenario",
        "kernel",
        "neuroncore",
        "breakdown",
        "learn",
        "api-prices",
        "serve-sim",
    ] {
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(&format!("{cmd} "))),
            "{cmd} missing from:\n{out}"
        );
        let (code, out, err) = run(&[cmd, "--help"]);
        assert_eq!(code, 0, "{cmd} --help: {err}");
        assert!(
            out.contains(&format!("Usage: accelscope {cmd}")),
            "{cmd}: {out}"
        );
    }
    // The long descriptions are in the commands' help.
    let (_, out, _) = run(&["roofline", "--help"]);
    assert!(
        out.contains("moe:experts,tokens_per_expert,d_model,d_ff"),
        "{out}"
    );
    let (_, out, _) = run(&["kernel", "--help"]);
    assert!(out.contains("fp8e4m3") && out.contains("nvfp4"), "{out}");
}

#[test]
fn csv_only_where_a_command_has_it() {
    let (code, csv, err) = run(&["eval", "--link", "?v=4&page=workload", "--csv"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(csv.lines().count(), 2, "a header and a row");
    assert!(csv.starts_with("chip_hours,chips,"), "{csv}");
    for cmd in [&["chips"][..], &["keys"], &["prices"], &["chip", "trn2"]] {
        check_error(&[cmd, &["--csv"]].concat(), "unexpected argument '--csv'");
    }
}

#[test]
fn flags_take_the_last_of_repeated_values_and_the_equals_form() {
    let v = json(&[
        "roofline",
        "--chip=nope",
        "--chip=trn2",
        "--dtype=bf16",
        "--intensity",
        "100",
        "--json",
    ]);
    assert_eq!(v["chip"], "trn2");
}

#[test]
fn collective_reports_time_algbw_busbw_and_terms() {
    let v = json(&[
        "collective",
        "--system",
        "trn2-16",
        "--op",
        "all-reduce",
        "--bytes",
        "1GiB",
        "--algo",
        "ring",
        "--json",
    ]);
    for k in [
        "time_s",
        "algbw_bytes_per_s",
        "busbw_bytes_per_s",
        "algorithm",
        "latency_term_s",
        "bandwidth_term_s",
    ] {
        assert!(v.get(k).is_some(), "{k}");
    }
    assert_eq!(v["algorithm"], "ring");
    let (t, l, b) = (
        v["time_s"].as_f64().unwrap(),
        v["latency_term_s"].as_f64().unwrap(),
        v["bandwidth_term_s"].as_f64().unwrap(),
    );
    assert!((t - l - b).abs() < 1e-15);
    // nccl-tests: busbw = algbw × 2(n−1)/n for all-reduce.
    let (alg, bus) = (
        v["algbw_bytes_per_s"].as_f64().unwrap(),
        v["busbw_bytes_per_s"].as_f64().unwrap(),
    );
    assert!((bus / alg - 2.0 * 15.0 / 16.0).abs() < 1e-12);
    let v = json(&[
        "collective",
        "--system",
        "gb200-nvl72",
        "--nodes",
        "4",
        "--op",
        "all-gather",
        "--bytes",
        "512KiB",
        "--json",
    ]);
    assert_eq!(v["ranks"], 288);
    let v = json(&[
        "collective",
        "--system",
        "trn2-ultra-64",
        "--op",
        "all-to-all",
        "--bytes",
        "64MiB",
        "--sim",
        "--json",
    ]);
    assert!(
        v["simulated"]["simulated_over_analytic"].as_f64().unwrap() > 1.0,
        "contention shows"
    );
}

#[test]
fn topology_and_systems() {
    let v = json(&["topology", "--system", "trn2-ultra-64", "--json"]);
    assert_eq!(v["chips"], 64);
    assert_eq!(v["diameter_hops"], 6);
    assert_eq!(v["bisection_bytes_per_s"], 2048e9);
    let v = json(&["systems", "--json"]);
    assert!(v["systems"].as_array().unwrap().len() >= 12);
    let v = json(&["calibration", "--json"]);
    let points = v["points"].as_array().unwrap();
    let load = v["serving_load"].as_array().unwrap();
    // The simulator's latencies under load: one fitted, some held out, each held to its
    // family's bound like every other point.
    assert!(load.iter().any(|p| p["role"] == "fitted"));
    assert!(load.iter().any(|p| p["role"] == "held-out"));
    for p in points.iter().chain(load) {
        // Each point's bound is the one the engine's table gives its role and family, and a
        // departure (only a departure) is outside it.
        let e = p["error"].as_f64().unwrap();
        let (_, fitted, other) = engine::calibration::TOLERANCE
            .iter()
            .find(|t| t.0.id() == p["family"])
            .unwrap_or_else(|| panic!("no bound for {}", p["family"]));
        let role = p["role"].as_str().unwrap();
        assert!(engine::calibration::Role::IDS.contains(&role), "{role}");
        let bound = engine::calibration::BOUND_AT_ENTRY
            .iter()
            .find(|b| p["label"] == b.0)
            .map_or(if role == "fitted" { *fitted } else { *other }, |b| b.1);
        assert_eq!(p["tolerance"].as_f64(), Some(bound), "{}", p["label"]);
        // A held-out point keeps the model's figure on the day it entered.
        assert_eq!(
            p["predicted_at_entry"].as_f64().is_some(),
            role == "held-out",
            "{}",
            p["label"]
        );
        assert_eq!(e.abs() > bound, role == "departs", "{}: {e}", p["label"]);
        assert_eq!(
            p["held_out_since"].is_string(),
            role == "held-out",
            "{}",
            p["label"]
        );
    }
    for family in ["collectives", "training", "serving"] {
        assert!(
            points
                .iter()
                .any(|p| p["family"] == family && p["role"] == "held-out"),
            "{family} has no held-out point"
        );
    }
}

#[test]
fn collective_nonsense_exits_2() {
    // One command line per case, its words separated by `|` (so a value may hold a space),
    // and what the error must say.
    for (line, needle) in [
        ("--system|trn2-16|--op|all-reduce|--bytes|-1GiB", "positive"),
        ("--system|trn2-16|--op|all-reduce|--bytes|0B", "positive"),
        (
            "--system|trn2-16|--op|all-reduce|--bytes|3 furlongs",
            "unknown unit",
        ),
        (
            "--system|trn2-16|--nodes|0|--op|all-reduce|--bytes|8B",
            "from 1 to 4096",
        ),
        ("--system|trn9|--op|all-reduce|--bytes|8B", "valid: trn1-16"),
        (
            "--system|trn2-16|--op|scatter|--bytes|8B",
            "valid: all-reduce",
        ),
        (
            "--system|trn2-16|--op|all-reduce|--bytes|8B|--algo|in-network",
            "reduces in flight",
        ),
        (
            "--system|gb200-nvl72|--op|all-reduce|--bytes|8B|--algo|torus",
            "needs a torus",
        ),
    ] {
        let args: Vec<&str> = core::iter::once("collective")
            .chain(line.split('|'))
            .collect();
        check_error(&args, needle);
    }
    check_error(&["topology", "--system", "nope"], "unknown system");
}

#[test]
fn train_and_infer_report_throughput_and_cost() {
    let v = json(&[
        "train",
        "--system",
        "trn1-16",
        "--nodes",
        "32",
        "--model",
        "gpt3-175b",
        "--dtype",
        "bf16",
        "--tp",
        "16",
        "--pp",
        "8",
        "--dp",
        "4",
        "--tokens",
        "1e9",
        "--json",
    ]);
    for k in ["tokens_per_s", "mfu", "time_s", "cost_usd"] {
        assert!(v[k].as_f64().is_some_and(|x| x > 0.0), "{k}");
    }
    // AWS Neuron Trn1 performance data: 33.14% MFU for this layout; within 20%.
    assert!((v["mfu"].as_f64().unwrap() / 0.3314 - 1.0).abs() < 0.2);
    let v = json(&[
        "infer",
        "--system",
        "gb300-nvl72",
        "--model",
        "deepseek-v3",
        "--dtype",
        "fp8",
        "--batch",
        "32",
        "--json",
    ]);
    for k in ["tokens_per_s", "chips_needed", "cost_per_mtok_usd"] {
        assert!(v[k].as_f64().is_some_and(|x| x > 0.0), "{k}");
    }
    let f4 = json(&[
        "infer",
        "--system",
        "gb300-nvl72",
        "--model",
        "deepseek-v3",
        "--dtype",
        "fp4",
        "--batch",
        "32",
        "--json",
    ]);
    assert_eq!(
        v["chips_needed"].as_f64().unwrap(),
        2.0 * f4["chips_needed"].as_f64().unwrap()
    );
    // Half the chips, but FP4's measured kernels do not run twice FP8's: cheaper, by less
    // than half.
    assert!(
        f4["cost_per_mtok_usd"].as_f64().unwrap() < 0.7 * v["cost_per_mtok_usd"].as_f64().unwrap()
    );
}

#[test]
fn train_and_infer_nonsense_exits_2() {
    check_error(
        &[
            "train",
            "--system",
            "trn2-16",
            "--model",
            "llama3-70b",
            "--dtype",
            "bf16",
            "--tp",
            "32",
        ],
        "cluster has 16 chips",
    );
    check_error(
        &[
            "train", "--system", "trn2-16", "--model", "gpt-9", "--dtype", "bf16",
        ],
        "valid: llama3-8b",
    );
    check_error(
        &[
            "train",
            "--system",
            "trn2-16",
            "--model",
            "llama3-8b",
            "--dtype",
            "bf16",
            "--tokens",
            "-5",
        ],
        "positive",
    );
    check_error(
        &[
            "infer",
            "--system",
            "trn2-16",
            "--model",
            "llama3-70b",
            "--dtype",
            "bf16",
        ],
        "required arguments were not provided:\n  --batch <B>",
    );
    check_error(
        &[
            "infer",
            "--system",
            "trn2-16",
            "--model",
            "llama3-405b",
            "--dtype",
            "bf16",
            "--batch",
            "4096",
        ],
        "does not fit",
    );
}

fn run_stdin(args: &[&str], input: &str) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_accelscope"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn eval_and_sweep_read_the_apps_scenario() {
    let (code, scenario, _) = run(&[
        "scenario",
        "--query",
        "wsys=hgx-h100-8&wnodes=4&wmodel=llama3-8b&wprice=2&wgbs=256",
    ]);
    assert_eq!(code, 0);
    let (code, out, err) = run_stdin(&["eval", "-"], &scenario);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["usd_per_chip_hour"], 2.0);
    let cost = v["cost_usd"].as_f64().unwrap();
    assert!((cost - v["chip_hours"].as_f64().unwrap() * 2.0).abs() < 1e-6 * cost);
    let (code, csv, err) = run_stdin(
        &["sweep", "-", "--set", "job.usd_per_chip_hour=1..4:4"],
        &scenario,
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 5, "header and 4 rows");
    let col = lines[0].split(',').position(|c| c == "cost_usd").unwrap();
    let costs: Vec<f64> = lines[1..]
        .iter()
        .map(|l| l.split(',').nth(col).unwrap().parse().unwrap())
        .collect();
    assert!(
        (costs[3] / costs[0] - 4.0).abs() < 1e-9,
        "cost is linear in price: {costs:?}"
    );
    // A long sweep reports its progress on stderr, a tenth at a time; its CSV stays clean.
    let (code, csv, err) = run_stdin(
        &["sweep", "-", "--set", "job.usd_per_chip_hour=1..4:100"],
        &scenario,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(csv.lines().count(), 101);
    assert_eq!(
        err.lines().filter(|l| l.starts_with("sweep: ")).count(),
        9,
        "{err}"
    );
    assert!(err.contains("sweep: 90% (90 of 100 steps)"), "{err}");
    let (code, _, err) = run_stdin(&["sweep", "-", "--set", "job.model=1..2:3"], &scenario);
    assert_eq!(code, 2);
    assert!(err.contains("not a numeric setting"));
    let (code, _, err) = run_stdin(&["eval", "-"], "{\"page\": ");
    assert_eq!(code, 2);
    assert!(err.contains("is not a scenario"));
}

#[test]
fn kernel_reports_errors_and_native_speed() {
    let v = json(&[
        "kernel", "gemm", "--m", "64", "--n", "64", "--k", "256", "--in", "fp8e4m3", "--acc",
        "fp32", "--json",
    ]);
    let snr = v["error"]["snr_db"].as_f64().unwrap();
    assert!((20.0..40.0).contains(&snr), "FP8 E4M3 GEMM SNR {snr}");
    assert!(v["gflop_per_s"].as_f64().unwrap() > 0.0);
    assert_eq!(v["error"]["histogram"].as_array().unwrap().len(), 22);
    assert!(v["formula"].as_str().unwrap().contains("FP8 E4M3"));
    let nv = json(&[
        "kernel", "gemm", "--m", "32", "--n", "32", "--k", "256", "--in", "nvfp4", "--json",
    ]);
    assert!(
        nv["error"]["snr_db"].as_f64().unwrap() < snr,
        "NVFP4 is noisier than FP8"
    );
    let b = json(&["kernel", "bench", "--size", "64", "--json"]);
    assert!(b["gemm_f32_gflop_per_s"].as_f64().unwrap() > 0.0);
    assert!(b["stream"]["triad_gb_per_s"].as_f64().unwrap() > 0.0);
    check_error(&["kernel", "gemm", "--in", "fp7"], "fp7");
    check_error(&["kernel", "fft"], "not a kernel");
    check_error(
        &[
            "kernel", "gemm", "--m", "4096", "--n", "4096", "--k", "4096",
        ],
        "multiply-adds",
    );
    check_error(&["kernel", "bench", "--size", "1e9"], "size");
}

#[test]
fn hostile_files_and_flags_are_refused_with_their_names() {
    let (_, scenario, _) = run(&["scenario"]);
    let mut v: Value = serde_json::from_str(&scenario).unwrap();
    for (field, value, needle) in [
        ("usd_per_chip_hour", json!(-3.0), "wprice"),
        ("pue", json!(-1.0), "wpue"),
        ("efficiency", json!(-0.5), "weff"),
        ("nodse", json!(64), "unknown field `nodse`"),
    ] {
        let mut bad = v.clone();
        bad["job"][field] = value;
        let (code, out, err) = run_stdin(&["eval", "-"], &bad.to_string());
        assert_eq!(code, 2, "{field}: {out}");
        assert!(err.contains(needle), "{field}: {err}");
    }
    v["page"] = json!("chips");
    let (code, _, err) = run_stdin(&["eval", "-"], &v.to_string());
    assert_eq!(code, 0, "{err}");
    let train = [
        "train",
        "--system",
        "trn2-16",
        "--model",
        "llama3-8b",
        "--dtype",
        "bf16",
    ];
    for (extra, needle) in [
        (&["--tp", "65536", "--pp", "65536"][..], "from 1 to 4096"),
        (&["--nodes", "4294967295"][..], "from 1 to 4096"),
        (&["--tp", "64", "--pp", "64"][..], "cluster has 16 chips"),
        (&["--ep-dispatch", "twice"][..], "per-expert, per-domain"),
        (&["--ep-overlap", "maybe"][..], "on or off"),
        (
            &["--dp", "16", "--zero", "3", "--replicate", "3"][..],
            "must divide the 16",
        ),
        (
            &["--dp", "16", "--replicate", "2"][..],
            "need FSDP (ZeRO-3)",
        ),
    ] {
        check_error(&[&train[..], extra].concat(), needle);
    }
    let sim = [
        "collective",
        "--system",
        "trn2-16",
        "--op",
        "all-reduce",
        "--sim",
    ];
    check_error(&[&sim[..], &["--bytes", "1e-304"]].concat(), "1 B to 1 PB");
}

/// `got` holds what `want` recorded; a setting added since holds its default for the link's
/// version, so the old link means what it meant. A fixture written before version 5 records
/// no price basis where it priced on the default of its day, which such a link now names.
fn same_state(got: &Value, want: &Value, defaults: &Value, link: &str) {
    let before_v5 = ["v=1", "v=2", "v=3", "v=4"].contains(&link.split('&').next().unwrap_or(""));
    match (got, want) {
        (Value::Object(g), Value::Object(w))
            if before_v5 && w.get("price_basis") == Some(&Value::Null) =>
        {
            let mut g = g.clone();
            if g.get("price_basis") == Some(&json!("on-demand@2025-05")) {
                g.insert("price_basis".into(), Value::Null);
            }
            let (g, w) = (Value::Object(g), Value::Object(w.clone()));
            same_state_as_recorded(&g, &w, defaults, link);
        }
        _ => same_state_as_recorded(got, want, defaults, link),
    }
}

fn same_state_as_recorded(got: &Value, want: &Value, defaults: &Value, link: &str) {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => {
            for (k, v) in g {
                match w.get(k) {
                    Some(wv) => same_state(v, wv, &defaults[k], link),
                    None => assert_eq!(
                        v, &defaults[k],
                        "{link}: {k}, added since the fixture, is not at its default"
                    ),
                }
            }
            for k in w.keys() {
                assert!(g.contains_key(k), "{link}: {k} is no longer decoded");
            }
        }
        _ => assert_eq!(got, want, "{link}: the decoded state changed"),
    }
}

/// Links written by every version open as they did: the same state and the same report.
/// The fixtures were written once per link version; a failure here means a change (a new
/// default, a renamed key) alters what an old link shows, and that version must be decoded
/// with its own defaults rather than the fixture regenerated.
#[test]
fn links_of_every_version_keep_their_meaning() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/links.json"
    ))
    .unwrap();
    let fixtures: Value = serde_json::from_str(&text).unwrap();
    let links = fixtures["links"].as_array().unwrap();
    assert!(links
        .iter()
        .any(|l| l["link"].as_str().unwrap().starts_with("v=1")));
    assert!(links
        .iter()
        .any(|l| l["link"].as_str().unwrap().starts_with("v=2")));
    // And links of today's version, so a change that alters what a new link shows fails too.
    let today = format!("v={}", json(&["keys", "--json"])["version"]);
    assert!(
        links
            .iter()
            .any(|l| l["link"].as_str().unwrap().split('&').next() == Some(today.as_str())),
        "no fixture of {today}"
    );
    for f in links {
        let link = f["link"].as_str().unwrap();
        // What a link of its version holds when it says nothing else.
        let version = link.split('&').next().unwrap();
        let defaults = json(&["scenario", "--query", version]);
        let state = json(&["scenario", "--query", link]);
        same_state(&state, &f["scenario"], &defaults, link);
        let job = json(&[
            "eval",
            "--link",
            &format!("https://example.org/accelscope/?{link}"),
        ]);
        for (k, want) in f["job"].as_object().unwrap() {
            let got = &job[k];
            match (got.as_f64(), want.as_f64()) {
                (Some(g), Some(w)) => assert!(
                    (g - w).abs() <= 1e-9 * w.abs().max(1e-300),
                    "{link}: {k} is {g}, was {w}"
                ),
                _ => assert_eq!(got, want, "{link}: {k}"),
            }
        }
    }
}

/// `compare A B --link` prints the Compare page's link carrying both: opened, it holds the
/// two jobs as given, under their platforms' names.
#[test]
fn compare_prints_a_link_that_carries_both_scenarios() {
    let (a, b) = (
        "v=9&wsys=trn2-ultra-64&wnodes=4",
        "v=9&wsys=gb200-nvl72&wnodes=1",
    );
    let (code, out, err) = run(&["compare", a, b, "--link"]);
    assert_eq!(code, 0, "{err}");
    let link = out.trim();
    assert!(
        link.starts_with("?v=") && link.contains("page=compare"),
        "{link}"
    );
    let state = json(&["scenario", "--query", link]);
    let compared = state["compared"].as_array().unwrap();
    assert_eq!(compared.len(), 2);
    assert!(compared[0]["name"].as_str().unwrap().contains("Trn2"));
    assert!(compared[1]["name"].as_str().unwrap().contains("GB200"));
    for (c, original) in compared.iter().zip([a, b]) {
        let got = json(&["eval", "--link", c["query"].as_str().unwrap(), "--json"]);
        let want = json(&["eval", "--link", original, "--json"]);
        assert_eq!(got["cost_usd"], want["cost_usd"]);
    }
    let (_, with_base, _) = run(&["compare", a, b, "--link", "--base", "https://x.test/app/"]);
    assert_eq!(with_base.trim(), format!("https://x.test/app/{link}"));
    let v = json(&["compare", a, b, "--link", "--json"]);
    assert_eq!(v["link"], link);
}

#[test]
fn compare_explains_the_difference_step_by_step() {
    let a = "v=2&wsys=trn2-ultra-64&wnodes=4";
    let b = "https://example.org/?v=2&wsys=gb300-nvl72&wnodes=1&wdtype=fp8&wown=1";
    let v = json(&["compare", a, b, "--json"]);
    let fig = |name: &str, side: &str| {
        v["figures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["figure"] == name)
            .unwrap()[side]
            .as_f64()
            .unwrap()
    };
    for (w, name) in [
        (0, "training $ per million tokens"),
        (1, "serving $ per million tokens"),
    ] {
        let fall = &v["waterfalls"][w];
        let start = fall["a_usd_per_mtok"].as_f64().unwrap();
        assert!((start - fig(name, "a")).abs() < 1e-9 * start, "{name}");
        let sum: f64 = fall["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["change_usd_per_mtok"].as_f64().unwrap())
            .sum();
        let diff = fig(name, "b") - fig(name, "a");
        assert!((sum - diff).abs() < 1e-9 * start, "{name}: {sum} vs {diff}");
    }
    // Owning B adds a power and facility step; renting A had none.
    let last = v["waterfalls"][0]["steps"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["factor"], "power and facility");
    assert!(last["change_usd_per_mtok"].as_f64().unwrap() > 0.0);
    check_error(
        &["compare", a],
        "required arguments were not provided:\n  <B>",
    );
    check_error(&["compare", a, "v=2&wsys=nope"], "nope");
}

/// `accelscope model ID` names a model as `--model ID` does.
#[test]
fn model_knows_the_open_weight_models_by_name() {
    // OpenAI's gpt-oss model card: 116.83B parameters, 5.13B active per token.
    let v = json(&["model", "gpt-oss-120b", "--json"]);
    let total = v["params_total"].as_f64().unwrap();
    let active = v["params_active"].as_f64().unwrap();
    assert!((total / 116.83e9 - 1.0).abs() < 0.01, "{total}");
    assert!((active / 5.13e9 - 1.0).abs() < 0.01, "{active}");
    // DeepSeek-V3 technical report (R1 shares its shape): 671B, 37B active.
    let r1 = json(&["model", "deepseek-r1", "--json"]);
    assert!((r1["params_total"].as_f64().unwrap() / 671e9 - 1.0).abs() < 0.01);
    assert_eq!(r1, json(&["model", "--model", "deepseek-r1", "--json"]));
    check_error(&["model", "gpt-oss-121b"], "gpt-oss-121b");
    check_error(
        &["model", "gpt-oss-120b", "--model", "llama3-8b"],
        "cannot be used with",
    );
}

#[test]
fn a_pasted_config_is_a_model_everywhere() {
    let cfg = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../engine/tests/data/hf/mixtral-8x7b-v0.1.json"
    );
    let v = json(&["model", "--model-config", cfg, "--json"]);
    let total = v["params_total"].as_f64().unwrap();
    // Mistral AI: 46.7B parameters in total.
    assert!((total / 46.7e9 - 1.0).abs() < 0.02, "{total}");
    assert_eq!(v["published"]["name"], "Mixtral 8x7B");
    let spec = v["spec"].as_str().unwrap().to_string();
    // The spec is a model id like any other: train and infer take it, or the file itself.
    let a = json(&[
        "infer",
        "--system",
        "hgx-h100-8",
        "--model",
        &spec,
        "--dtype",
        "fp8",
        "--batch",
        "32",
        "--json",
    ]);
    let b = json(&[
        "infer",
        "--system",
        "hgx-h100-8",
        "--model-config",
        cfg,
        "--dtype",
        "fp8",
        "--batch",
        "32",
        "--json",
    ]);
    assert_eq!(a["tokens_per_s"], b["tokens_per_s"]);
    check_error(
        &["model", "--model", "m:l2,d64,h3,kv3,f1,v1"],
        "does not split into 3 heads",
    );
    let bad = std::env::temp_dir().join("accelscope-bad-config.json");
    std::fs::write(&bad, r#"{"hidden_size": "big"}"#).unwrap();
    check_error(
        &["model", "--model-config", bad.to_str().unwrap()],
        "hidden_size is a string",
    );
}

#[test]
fn train_reports_goodput_with_failures() {
    let run = |sys: &str, nodes: &str| {
        json(&[
            "train",
            "--system",
            sys,
            "--nodes",
            nodes,
            "--model",
            "llama3-405b",
            "--dtype",
            "bf16",
            "--tokens",
            "15.6e12",
            "--json",
        ])
    };
    let (trn, hgx) = (run("trn2-ultra-64", "256"), run("hgx-h100-8", "2048"));
    for v in [&trn, &hgx] {
        let f = &v["failures"];
        let g = f["goodput"].as_f64().unwrap();
        assert!(g > 0.8 && g < 1.0, "{f}");
        let real = f["real_time_s"].as_f64().unwrap();
        assert!((real * g / v["time_s"].as_f64().unwrap() - 1.0).abs() < 1e-12);
    }
    // Same chips, same interruptions; a 64-chip failure domain holds 8 times the chips of an
    // 8-GPU server, for 6 times as long.
    assert_eq!(trn["failures"]["blast_radius_chips"], 64);
    assert_eq!(hgx["failures"]["blast_radius_chips"], 8);
    let spares = |v: &Value| v["failures"]["spare_chips"].as_f64().unwrap();
    assert!((spares(&trn) / spares(&hgx) - 48.0).abs() < 1e-9);
}

#[test]
fn serving_against_latency_targets() {
    let v = json(&[
        "serve-curve",
        "--system",
        "hgx-h100-8",
        "--model",
        "llama2-70b",
        "--dtype",
        "fp8",
        "--prompt",
        "290",
        "--output",
        "290",
        "--slo-ttft",
        "2s",
        "--slo-tpot",
        "200ms",
        "--json",
    ]);
    let pts = v["points"].as_array().unwrap();
    assert!(pts.len() >= 3);
    // The frontier: more tokens per user costs throughput per chip.
    for w in pts.windows(2) {
        assert!(w[1]["tokens_per_s_per_user"].as_f64() > w[0]["tokens_per_s_per_user"].as_f64());
        assert!(w[1]["tokens_per_s_per_chip"].as_f64() < w[0]["tokens_per_s_per_chip"].as_f64());
    }
    let c = &v["cheapest"];
    assert!(c["tpot_s"].as_f64().unwrap() <= 0.2 && c["ttft_s"].as_f64().unwrap() <= 2.0);
    // infer answers the same question with the same point.
    let i = json(&[
        "infer",
        "--system",
        "hgx-h100-8",
        "--model",
        "llama2-70b",
        "--dtype",
        "fp8",
        "--prompt",
        "290",
        "--output",
        "290",
        "--slo-ttft",
        "2s",
        "--slo-tpot",
        "200ms",
        "--json",
    ]);
    assert_eq!(i["cheapest"], *c);
    check_error(
        &[
            "infer",
            "--system",
            "hgx-h100-8",
            "--model",
            "llama2-70b",
            "--dtype",
            "fp8",
            "--slo-tpot",
            "fast",
        ],
        "duration",
    );
}

/// A link's serving view names the same point as `serve-curve` on that platform alone: the
/// page and the CLI evaluate one engine function.
#[test]
fn a_links_serving_view_agrees_with_the_single_platform_curve() {
    let v = json(&[
        "serve-curve",
        "--link",
        "?v=4&page=workload&wsys=hgx-h200-8&wmodel=llama3-70b&wdtype=fp8&wttft=0.5&wtpot=0.03&wcurve=gb200-nvl72,trn2-ultra-64",
        "--json",
    ]);
    let platforms = v["platforms"].as_array().unwrap();
    assert_eq!(platforms.len(), 3);
    assert_eq!(platforms[0]["system"], "hgx-h200-8");
    let h200 = &platforms[0]["cheapest"];
    let one = json(&[
        "serve-curve",
        "--system",
        "hgx-h200-8",
        "--model",
        "llama3-70b",
        "--dtype",
        "fp8",
        "--slo-ttft",
        "500ms",
        "--slo-tpot",
        "30ms",
        "--json",
    ]);
    for k in [
        "chips_per_replica",
        "batch",
        "ttft_s",
        "tpot_s",
        "tokens_per_s_per_chip",
    ] {
        assert_eq!(h200[k], one["cheapest"][k], "{k}");
    }
    // The cheapest of all has the lowest $/Mtok of the three.
    let usd = |p: &Value| {
        p["cheapest"]["usd_per_mtok"]
            .as_f64()
            .unwrap_or(f64::INFINITY)
    };
    let best = platforms
        .iter()
        .min_by(|a, b| usd(a).total_cmp(&usd(b)))
        .unwrap();
    assert_eq!(v["cheapest"], best["system"]);
    // Served disaggregated on the job's own platform: the caches stay on NVLink when both
    // replicas fit one 8-GPU node, and cross the network otherwise.
    let d = &v["disaggregated"]["cheapest"];
    let chips = d["prefill_chips_per_replica"].as_u64().unwrap()
        + d["decode_chips_per_replica"].as_u64().unwrap();
    assert_eq!(d["kv_over_scale_up"], chips <= 8, "{d}");
    assert!(d["ttft_s"].as_f64().unwrap() <= 0.5 && d["step_p99_s"].as_f64().unwrap() <= 0.03);
}

#[test]
fn neuroncore_simulates_tunes_and_explains() {
    // The flags and the link's text describe the same experiment and give the same answer.
    let flags = json(&[
        "neuroncore",
        "matmul",
        "--chip",
        "trn2",
        "--m",
        "512",
        "--n",
        "1024",
        "--k",
        "768",
        "--tile",
        "256x512x256",
        "--bufs",
        "1",
        "--json",
    ]);
    let text = json(&[
        "neuroncore",
        "--spec",
        "trn2_mm_512x1024x768_bf16_t256x512x256_b1_sA",
        "--json",
    ]);
    assert_eq!(flags, text);
    assert_eq!(flags["flop"], 2.0 * 512.0 * 1024.0 * 768.0);
    assert!(flags["of_array_peak"].as_f64().unwrap() <= 1.0);
    assert_eq!(flags["sbuf_bytes_per_partition"], 224 * 1024);
    let lanes = flags["lanes"].as_array().unwrap();
    assert_eq!(lanes[0]["unit"], "Tensor");
    assert!(lanes
        .iter()
        .any(|l| l["stalls"]["buffer_s"].as_f64().unwrap() > 0.0));
    // Autotune returns the fastest first, none slower than the hand-picked blocks.
    let tuned = json(&[
        "neuroncore",
        "matmul",
        "--m",
        "512",
        "--n",
        "1024",
        "--k",
        "768",
        "--autotune",
        "--top",
        "3",
        "--json",
    ]);
    let best = tuned["best"].as_array().unwrap();
    assert!(!best.is_empty() && best.len() <= 3);
    assert!(best[0]["time_s"].as_f64().unwrap() <= flags["time_s"].as_f64().unwrap());
    // Every parameter names its source; some are estimates.
    let core = json(&["neuroncore", "core", "--chip", "trn3", "--json"]);
    let params = core["params"].as_array().unwrap();
    assert!(params
        .iter()
        .all(|p| !p["source"].as_str().unwrap().is_empty()));
    assert!(params.iter().any(|p| p["estimate"] == true));
    check_error(
        &["neuroncore", "matmul", "--chip", "h100-sxm"],
        "not a Trainium",
    );
    check_error(
        &[
            "neuroncore",
            "matmul",
            "--m",
            "8192",
            "--n",
            "8192",
            "--k",
            "8192",
            "--tile",
            "1024x8192x8192",
        ],
        "224 KiB available",
    );
    check_error(
        &["neuroncore", "attention", "--d", "256"],
        "head dimension 256",
    );
    check_error(
        &["neuroncore", "matmul", "--stationary", "c"],
        "--stationary is a or b",
    );
}

#[test]
fn prices_are_dated_typed_and_the_default_jobs_share_a_basis() {
    let v = json(&["prices", "--json"]);
    let rates = v["rates"].as_array().unwrap();
    assert!(rates.len() >= 12, "{} rates", rates.len());
    for r in rates {
        for k in ["chip", "as_of", "kind", "region"] {
            assert!(r[k].as_str().is_some_and(|s| !s.is_empty()), "{r}: {k}");
        }
        assert!(r["usd_per_chip_hour"].as_f64().is_some_and(|x| x > 0.0));
        assert!(r["source"]["url"]
            .as_str()
            .is_some_and(|u| u.starts_with("https://")));
    }
    // The default Trn2 UltraServer job and the same job on H100 are priced on one basis:
    // one kind of price from one date.
    let basis = |link: &str| {
        let r = json(&["eval", "--link", link]);
        (
            r["price_kind"].clone(),
            r["price_as_of"].clone(),
            r["price_fell_back"].clone(),
        )
    };
    let trn2 = basis("?v=5&page=workload");
    let h100 = basis("?v=5&page=workload&wsys=hgx-h100-8&wnodes=32");
    assert_eq!(trn2, h100);
    assert_eq!(trn2.2, json!(false));
    assert_eq!(
        trn2.1,
        v["default_basis"]
            .as_str()
            .unwrap()
            .split('@')
            .nth(1)
            .unwrap()
    );
    for args in [
        ["train", "--system", "trn2-ultra-64", "--nodes", "4"],
        ["train", "--system", "hgx-h100-8", "--nodes", "32"],
    ] {
        let mut a = args.to_vec();
        a.extend(["--model", "llama3-70b", "--dtype", "bf16", "--json"]);
        let t = json(&a);
        assert_eq!(
            (t["price_kind"].clone(), t["price_as_of"].clone()),
            (trn2.0.clone(), trn2.1.clone())
        );
    }
    // Another basis by name; a chip without a rate on it falls back, and says so.
    let b = json(&[
        "train",
        "--system",
        "hgx-b200-8",
        "--model",
        "llama3-8b",
        "--dtype",
        "bf16",
        "--price-basis",
        "on-demand@2025-05",
        "--json",
    ]);
    assert_eq!(b["price_fell_back"], json!(true));
    let (code, _, err) = run(&["prices", "--chip", "nope"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&[
        "train",
        "--system",
        "trn2-16",
        "--model",
        "llama3-8b",
        "--dtype",
        "bf16",
        "--price-basis",
        "cheap@never",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("no price basis 'cheap@never'"), "{err}");
}

/// One table of link keys: `keys --json` lists each with its kind, range and the version it
/// appeared in, and a flag accepts exactly what its link key does.
#[test]
fn the_link_key_table_and_the_flags_agree() {
    let v = json(&["keys", "--json"]);
    let keys = v["keys"].as_array().unwrap();
    assert!(keys.len() >= 60, "{}", keys.len());
    for k in keys {
        assert!(
            k["key"].is_string() && k["since"].as_u64().is_some_and(|s| s >= 1),
            "{k}"
        );
    }
    let max = |key: &str| {
        keys.iter()
            .find(|k| k["key"] == key)
            .and_then(|k| k["max"].as_f64())
            .unwrap()
    };
    // The largest prompt a link may carry is one `infer --prompt` takes, and one more is
    // refused by both.
    let wpr = max("wpr") as u64;
    for (prompt, ok) in [(wpr, true), (wpr + 1, false)] {
        let p = prompt.to_string();
        let (code, _, err) = run(&[
            "infer",
            "--system",
            "gb200-nvl72",
            "--model",
            "llama3-8b",
            "--dtype",
            "fp8",
            "--batch",
            "1",
            "--prompt",
            &p,
            "--output",
            "16",
        ]);
        let accepted = code == 0 || !err.contains("--prompt");
        assert_eq!(accepted, ok, "--prompt {p}: {err}");
        let notes = run(&[
            "eval",
            "--link",
            &format!("?v=4&page=workload&wpr={p}"),
            "--json",
        ])
        .2;
        assert_eq!(!notes.contains("wpr"), ok, "wpr={p}: {notes}");
    }
}

/// `breakdown`: the training step's, the prefill's and the decode step's operations, each
/// with its fields, add up to their parts, and the training step is the one `eval` reports.
#[test]
fn breakdown_adds_up_to_the_step() {
    let link = "?v=3&page=workload&wsys=hgx-h100-8&wnodes=8&wmodel=llama3-70b&wdtype=fp8";
    let v = json(&["breakdown", "--link", link, "--json"]);
    let bounds = ["compute", "memory", "communication", "latency", "overhead"];
    let sources = ["measured", "fitted", "modelled", "assumed"];
    for name in ["train_step", "prefill", "decode_step"] {
        let part = &v[name];
        let ops = part["ops"].as_array().unwrap();
        assert!(ops.len() >= 6, "{name}: {ops:?}");
        for o in ops {
            for k in [
                "name", "count", "flop", "bytes", "time_s", "bound", "of_peak", "source",
            ] {
                assert!(o.get(k).is_some(), "{k} in {o}");
            }
            assert!(bounds.contains(&o["bound"].as_str().unwrap()), "{o}");
            assert!(sources.contains(&o["source"].as_str().unwrap()), "{o}");
        }
        let total = part["total_s"].as_f64().unwrap();
        let sum: f64 = ops.iter().map(|o| o["time_s"].as_f64().unwrap()).sum();
        assert!(
            (sum / total - 1.0).abs() < 0.01,
            "{name}: {sum} against {total}"
        );
    }
    let total = v["train_step"]["total_s"].as_f64().unwrap();
    let step = json(&["eval", "--link", link])["step_s"].as_f64().unwrap();
    assert!((total / step - 1.0).abs() < 0.01, "{total} against {step}");
    let (code, _, err) = run(&["breakdown", "--link", "?wsys=nope"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn learn_lists_the_lessons_with_their_answers() {
    let v = json(&["learn", "--json"]);
    let lessons = v["lessons"].as_array().unwrap();
    assert!(lessons.len() >= 5, "{lessons:?}");
    for l in lessons {
        assert!(l["link"].as_str().unwrap().starts_with("?v="), "{l}");
        let ex = l["exercises"].as_array().unwrap();
        assert!(!ex.is_empty(), "{l}");
        for e in ex {
            assert!(e["answer"].as_f64().unwrap() > 0.0, "{e}");
            assert!(e["worked"].as_str().is_some_and(|w| !w.is_empty()), "{e}");
        }
    }
    let one = json(&["learn", "--lesson", "torus", "--json"]);
    assert_eq!(one["lessons"].as_array().unwrap().len(), 1);
    check_error(&["learn", "--lesson", "nope"], "valid: roofline");
}

#[test]
fn api_prices_are_dated_and_sourced() {
    let v = json(&["api-prices", "--json"]);
    let prices = v["prices"].as_array().unwrap();
    assert!(prices.len() >= 6, "{prices:?}");
    for p in prices {
        for k in ["model", "provider", "as_of"] {
            assert!(p[k].as_str().is_some_and(|s| !s.is_empty()), "{k}: {p}");
        }
        for k in ["input_usd_per_mtok", "output_usd_per_mtok"] {
            assert!(p[k].as_f64().unwrap() > 0.0, "{k}: {p}");
        }
        assert!(
            p["cached_input_usd_per_mtok"].is_null()
                || p["cached_input_usd_per_mtok"].as_f64().is_some()
        );
        assert!(
            p["source"]["url"].as_str().unwrap().starts_with("https://"),
            "{p}"
        );
    }
}

#[test]
fn a_config_with_sliding_windows_keeps_half_the_kv_cache() {
    let v = json(&[
        "model",
        "--model-config",
        "../engine/tests/data/hf/gpt-oss-120b.json",
        "--json",
    ]);
    let share = v["kv_bytes_per_token_bf16"].as_f64().unwrap()
        / v["kv_bytes_per_token_bf16_every_layer"].as_f64().unwrap();
    assert!(share <= 0.55, "{share}");
    assert_eq!(v["windowed_layers"], 18);
}

#[test]
fn serve_sim_meets_the_analytic_model_at_low_load_and_queues_under_load() {
    let sim = |rate: &str, extra: &[&str]| {
        let mut a = vec![
            "serve-sim",
            "--system",
            "hgx-h200-8",
            "--model",
            "llama3-70b",
            "--dtype",
            "fp8",
            "--tp",
            "4",
            "--prompt",
            "1024",
            "--output",
            "256",
            "--rate",
            rate,
            "--json",
        ];
        a.extend_from_slice(extra);
        json(&a)
    };
    let idle = sim("0.05", &[]);
    let batch1 = json(&[
        "infer",
        "--system",
        "hgx-h200-8",
        "--model",
        "llama3-70b",
        "--dtype",
        "fp8",
        "--tp",
        "4",
        "--batch",
        "1",
        "--prompt",
        "1024",
        "--output",
        "256",
        "--json",
    ]);
    let analytic = batch1["latency_per_token_s"].as_f64().unwrap();
    let tpot = idle["tpot_p50_s"].as_f64().unwrap();
    assert!(
        (tpot / analytic - 1.0).abs() < 0.15,
        "{tpot} against {analytic}"
    );
    let loaded = sim("200", &["--duration", "30"]);
    let (a, b) = (
        idle["ttft_p99_s"].as_f64().unwrap(),
        loaded["ttft_p99_s"].as_f64().unwrap(),
    );
    assert!(b > 5.0 * a, "{b} against {a}");
    for k in [
        "ttft_p50_s",
        "tpot_p99_s",
        "output_tokens_per_s",
        "requests",
    ] {
        assert!(loaded[k].as_f64().is_some(), "{k}");
    }
    // The same seed, the same output; the prefix cache shortens agentic turns.
    assert_eq!(
        sim("3", &["--trace", "chat", "--duration", "60"]),
        sim("3", &["--trace", "chat", "--duration", "60"])
    );
    let with = sim("2", &["--trace", "agentic", "--duration", "300"]);
    let without = sim(
        "2",
        &[
            "--trace",
            "agentic",
            "--duration",
            "300",
            "--no-prefix-cache",
        ],
    );
    assert!(with["ttft_p50_s"].as_f64() < without["ttft_p50_s"].as_f64());
    check_error(
        &[
            "serve-sim",
            "--system",
            "hgx-h200-8",
            "--model",
            "llama3-70b",
            "--dtype",
            "fp8",
            "--rate",
            "1",
            "--trace",
            "nope",
        ],
        "poisson, bursty, chat, agentic",
    );
}

/// The default job's headline figures each carry a range with its evidence, the verdict is
/// given on every basis, and the serving cost is the serving curve's cheapest point meeting
/// the page's own targets (TTFT 2 s, TPOT 50 ms).
#[test]
fn eval_carries_ranges_the_verdict_by_basis_and_one_serving_cost() {
    let v = json(&[
        "eval",
        "--today",
        "2026-11-26",
        "--link",
        "?v=5&page=workload",
    ]);
    for figure in [
        "train_cost_per_mtok_usd",
        "infer_cost_per_mtok_usd",
        "cost_usd",
        "time_s",
    ] {
        let r = &v["ranges"][figure];
        let (lo, hi) = (r["low"].as_f64().unwrap(), r["high"].as_f64().unwrap());
        let x = v[figure].as_f64().unwrap();
        assert!(lo <= x && x <= hi && lo < hi, "{figure}: {lo} {x} {hi}");
        let e = &r["evidence"];
        assert!(
            e["points"].as_u64().is_some_and(|n| n >= 1),
            "{figure}: {e}"
        );
        assert!(e["same_chip"].is_boolean() && e["includes_price"].is_boolean());
        assert!(r["caveat"].as_str().is_some_and(|c| !c.is_empty()));
    }
    // No held-out Trainium2 training run: the training ranges say so; its serving runs are.
    assert_eq!(
        v["ranges"]["cost_usd"]["evidence"]["same_chip"],
        json!(false)
    );
    assert!(v["ranges"]["cost_usd"]["caveat"]
        .as_str()
        .unwrap()
        .starts_with("no Trainium2 training run"));
    assert_eq!(
        v["ranges"]["infer_cost_per_mtok_usd"]["evidence"]["same_chip"],
        json!(true)
    );
    // Prices of this year, four months old when read in November.
    assert!(v["price_as_of"].as_str().unwrap() >= "2026-07");
    assert_eq!(v["price_age_months"], json!(4));
    // Read two years on, the same rate is part of the cost's range.
    let later = json(&[
        "eval",
        "--today",
        "2028-11-26",
        "--link",
        "?v=5&page=workload",
    ]);
    assert_eq!(
        later["ranges"]["cost_usd"]["evidence"]["includes_price"],
        json!(true)
    );
    let verdicts = v["basis_verdicts"].as_array().unwrap();
    assert!(verdicts.len() >= 3, "{verdicts:?}");
    for b in verdicts {
        assert!(b["this_usd_per_mtok"].as_f64().is_some_and(|x| x > 0.0));
        assert!(b["other_usd_per_mtok"].as_f64().is_some_and(|x| x > 0.0));
    }
    assert!(v["basis_verdict"].as_str().unwrap().contains("bases"));
    // One serving cost.
    assert_eq!(v["infer_meets_targets"], json!(true));
    let curve = json(&[
        "serve-curve",
        "--system",
        "trn2-ultra-64",
        "--model",
        "llama3-70b",
        "--dtype",
        "bf16",
        "--slo-ttft",
        "2",
        "--slo-tpot",
        "0.05",
        "--json",
    ]);
    let cheapest = curve["cheapest"]["usd_per_mtok"].as_f64().unwrap();
    let served = v["infer_cost_per_mtok_usd"].as_f64().unwrap();
    assert!(
        (served / cheapest - 1.0).abs() < 0.02,
        "{served} against {cheapest}"
    );
    // Targets nothing meets: the job's own batch, and it says so.
    let none = json(&["eval", "--link", "?v=5&page=workload&wtpot=0.001"]);
    assert_eq!(none["infer_meets_targets"], json!(false));
    let (code, _, err) = run(&["eval", "--today", "26/11/2026", "--link", "?v=5"]);
    assert_eq!(code, 2, "{err}");
}

/// The kernel tables: every one sourced and counted, GEMMs measured on H100, H200 and B200
/// and on AMD's chips, and a GEMM read from a table at one of its own points gives that point.
#[test]
fn kernel_data_lists_sourced_tables_and_reads_a_gemm() {
    let v = json(&["kernel-data", "--json"]);
    let tables = v["tables"].as_array().unwrap();
    for t in tables {
        assert!(t["points"].as_u64().is_some_and(|n| n >= 4), "{t}");
        assert!(t["kernel_source"]
            .as_str()
            .unwrap()
            .starts_with("https://github.com/"));
        assert!(!t["license"].as_str().unwrap().is_empty());
    }
    let gemm_on = |chip: &str, key: &str| {
        tables
            .iter()
            .any(|t| t["chip"] == chip && t["op"] == "gemm" && t[key].as_u64() >= Some(4))
    };
    // Measured on NVIDIA, AMD and Google; Trainium's GEMMs modelled (AWS publishes none by
    // shape), and said so.
    for chip in ["h100-sxm", "h200", "b200", "mi300x", "mi355x", "tpu-v7"] {
        assert!(gemm_on(chip, "measured_points"), "{chip}");
    }
    assert!(gemm_on("trn2", "points") && !gemm_on("trn2", "measured_points"));
    assert!(tables
        .iter()
        .filter(|t| t["chip"] == "trn2")
        .all(|t| t["kind"] == "modelled"));
    // aiconfigurator's H100 FP8 GEMM at M = 4,096, N = K = 8,192: 0.44660 ms.
    let g = json(&[
        "kernel-data",
        "--chip",
        "h100-sxm",
        "--gemm",
        "4096,8192,8192",
        "--format",
        "fp8",
        "--json",
    ]);
    let t = g["gemm"]["time_s"].as_f64().unwrap();
    assert!((t / 0.446_597_337_722_778_3e-3 - 1.0).abs() < 1e-9, "{t}");
    let (code, _, err) = run(&[
        "kernel-data",
        "--chip",
        "h100-sxm",
        "--gemm",
        "1,1,1",
        "--format",
        "nvfp4",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("no nvfp4 GEMM table for h100-sxm"), "{err}");
    let (code, _, err) = run(&["kernel-data", "--chip", "h100-sxm", "--gemm", "1,2"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn train_takes_a_micro_batch_and_offloads_layer_inputs_where_nothing_else_fits() {
    // A 1,024-sequence batch over 256 data-parallel chips at micro-batch 4 is one pass a
    // step. Its layer inputs (43 GB a chip at 8K tokens) do not fit a v6e's 32 GB, so they go
    // to host memory, as MaxText's offload policy sends them.
    let base = [
        "train",
        "--system",
        "tpu-v6e-256",
        "--model",
        "llama3-70b",
        "--dtype",
        "bf16",
        "--batch",
        "1024",
        "--tp",
        "1",
        "--pp",
        "1",
        "--dp",
        "256",
        "--zero",
        "3",
    ];
    fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        let mut a: Vec<&str> = base.to_vec();
        a.extend_from_slice(extra);
        a.push("--json");
        a
    }
    let v = json(&with(&base, &["--micro-batch", "4"]));
    assert_eq!(v["micro_batch"], 4);
    assert_eq!(v["micro_batches"], 1.0);
    assert_eq!(v["offload"], true);
    // Chosen when not given: a power of two up to the four sequences a chip holds a step.
    let chosen = json(&with(&base, &[]));
    let b = chosen["micro_batch"].as_u64().unwrap();
    assert!(b.is_power_of_two() && b <= 4, "{b}");
    assert_eq!(chosen["micro_batches"].as_f64().unwrap() * b as f64, 4.0);
    // Offload refused, micro-batch 4 does not fit, and the message says what would.
    let (code, _, err) = run(&with(&base, &["--micro-batch", "4", "--offload", "off"]));
    assert_ne!(code, 0);
    assert!(err.contains("offload"), "{err}");
    // A micro-batch out of the key's range is named.
    let (code, _, err) = run(&with(&base, &["--micro-batch", "0"]));
    assert_ne!(code, 0);
    assert!(err.contains("micro-batch") || err.contains("wmb"), "{err}");
}
