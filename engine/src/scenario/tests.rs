//! Tests of the scenario and its link codec.
use super::*;

#[test]
fn a_pasted_models_shape_travels_in_a_link_unescaped() {
    // Only the name of a model read from a config.json may need escapes in a link.
    for text in [
        include_str!("../../tests/data/hf/deepseek-v3.json"),
        include_str!("../../tests/data/hf/qwen3-30b-a3b.json"),
        include_str!("../../tests/data/hf/gpt2.json"),
        include_str!("../../tests/data/hf/qwen2.5-72b.json"),
    ] {
        let (m, _) = crate::workload::custom::from_hf_config(text).unwrap();
        let shape = m.id.split(",n:").next().unwrap();
        assert_eq!(enc(shape), shape);
    }
}

#[test]
fn the_decoder_reads_every_key_of_the_table_and_no_other() {
    for k in keys::KEYS {
        for v in ["1", "x"] {
            let (_, notes) = Scenario::from_query(&alloc::format!("{}={v}", k.key));
            assert!(
                notes.iter().all(|n| !n.message.contains("unknown setting")),
                "{}: {notes:?}",
                k.key
            );
        }
    }
    let (_, notes) = Scenario::from_query("wzz=1");
    assert!(notes.iter().any(|n| n.message.contains("unknown setting")));
}

#[test]
fn keys_are_unique_and_bounded_kinds_have_a_range() {
    for (i, k) in keys::KEYS.iter().enumerate() {
        assert!(
            keys::KEYS[..i].iter().all(|o| o.key != k.key),
            "{} twice",
            k.key
        );
        assert!(k.since >= 1 && k.since <= VERSION, "{}", k.key);
        if k.kind.bounded() {
            assert!(
                k.min <= k.max && k.max > 0.0,
                "{}: {} to {}",
                k.key,
                k.min,
                k.max
            );
        }
        assert!(!k.what.is_empty());
    }
    assert!(keys::KEYS.len() >= 60);
}

#[test]
fn a_value_at_either_end_is_accepted_and_beyond_is_named() {
    for k in keys::KEYS
        .iter()
        .filter(|k| matches!(k.kind, keys::Kind::Count | keys::Kind::Number))
    {
        // A seed spans every 64-bit value: nothing lies beyond it.
        let beyond = (k.max < 1e15).then_some((k.max * 2.0 + 1.0, false));
        for (v, ok) in [(k.min, true), (k.max, true)].into_iter().chain(beyond) {
            let text = if k.kind == keys::Kind::Count {
                alloc::format!("{}", v as u64)
            } else {
                alloc::format!("{v}")
            };
            let (_, notes) = Scenario::from_query(&alloc::format!("{}={text}", k.key));
            let named = notes.iter().any(|n| n.key == k.key);
            assert_eq!(!named, ok, "{}={text}: {notes:?}", k.key);
        }
    }
}

#[test]
fn defaults_come_from_the_default_state() {
    let d = key_defaults();
    assert_eq!(d.len(), keys::KEYS.len());
    let get = |k: &str| d.iter().find(|(x, _)| *x == k).map(|(_, v)| v.clone());
    assert_eq!(get("v"), Some(alloc::format!("{VERSION}")));
    assert_eq!(get("page").as_deref(), Some("chips"));
}
use crate::chip::Field;

/// Mutated links: every decode ends, names at most [`MAX_NOTICES`] + 1 problems, and what
/// it keeps encodes and decodes back to itself.
#[test]
fn fuzzed_links_decode_to_a_stable_state() {
    use crate::kernels::Rng;
    // Every key of the table, and one no link has.
    let keys: Vec<&str> = keys::KEYS
        .iter()
        .map(|k| k.key)
        .chain(core::iter::once("zzz"))
        .collect();
    let values = [
        "",
        "0",
        "1",
        "-1",
        "1e308",
        "1e-304",
        "NaN",
        "inf",
        "-0",
        "4294967296",
        "5000",
        "trn2",
        "trn2-16",
        "gb200-nvl72",
        "edit:trn2-16;torus=4x8",
        "gemm:1,2,3",
        "gemm:1e15,1e15,1e15",
        "elem:1,2,1,1",
        "bf16,fp8",
        "all-reduce",
        "ring,auto",
        "1GiB",
        "llama3-70b",
        "roofline",
        "kernels",
        "mxfp4",
        "b0e8m0",
        "cpu1:1,1",
        "%FF%FE",
        "%",
        "a,b,,c",
        "trn2:hbm=1e99",
        "😀",
    ];
    let mut rng = Rng::new(2024);
    for _ in 0..20_000 {
        let parts = 1 + (rng.next_u64() % 8) as usize;
        let mut q = alloc::vec::Vec::new();
        for _ in 0..parts {
            let k = keys[(rng.next_u64() % keys.len() as u64) as usize];
            let mut v = String::from(values[(rng.next_u64() % values.len() as u64) as usize]);
            if rng.next_u64() % 4 == 0 {
                v.push_str(values[(rng.next_u64() % values.len() as u64) as usize]);
            }
            q.push(alloc::format!("{k}={v}"));
        }
        let q = q.join("&");
        let (a, notes) = Scenario::from_query(&q);
        assert!(notes.len() <= MAX_NOTICES + 1, "{q}");
        let (b, again) = Scenario::from_query(&a.to_query());
        assert_eq!(a, b, "{q}");
        assert!(again.is_empty(), "{q}: {again:?}");
    }
}

#[test]
fn links_carry_only_what_differs_from_the_defaults() {
    assert_eq!(
        Scenario::default().to_query(),
        alloc::format!("v={VERSION}")
    );
    let (s, notes) = Scenario::from_query(
        "page=workload&wsys=gb300-nvl72&wnodes=8&wmodel=deepseek-v3&wdtype=fp8&wprice=3.25&wown=1&wyears=4",
    );
    assert!(notes.is_empty(), "{notes:?}");
    let q = s.to_query();
    assert!(q.len() < 300, "{} characters: {q}", q.len());
    assert_eq!(Scenario::from_query(&q).0, s);
    // Every key written out opens as the same state as the short form.
    assert_eq!(Scenario::from_query(&s.to_query_full()).0, s);
    // A version 1 or 2 link opens with the training-layout model it was made with, and
    // keeps it when written again.
    for v in ["v=1", "v=2"] {
        let old = s
            .to_query_full()
            .replacen(&alloc::format!("v={VERSION}"), v, 1)
            .replace(&alloc::format!("&wlm={}", crate::keys::MODEL_VERSION), "");
        let (o, notes) = Scenario::from_query(&old);
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(o.job.model_version, 2);
        assert!(o.to_query().contains("&wlm=2"));
        assert_eq!(Scenario::from_query(&o.to_query()).0, o);
    }
    // A version 3 link opens with the rate it was made with (the chip's first), not on
    // today's price basis, and keeps it when written again.
    let (o, notes) = Scenario::from_query("v=3&page=workload&wsys=hgx-h100-8");
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(o.job.rental_option, Some(0));
    assert_eq!(Scenario::from_query(&o.to_query()).0, o);
    let (_, notes) = Scenario::from_query(&alloc::format!("v={}", VERSION + 1));
    assert!(notes[0].message.contains("newer"));
    // The app's navigation relies on the page coming right after the version.
    let mut on = s.clone();
    on.page = Page::Roofline;
    let mut off = s.clone();
    off.page = Page::Chips;
    let q = off.to_query();
    let (v, rest) = q.split_once('&').unwrap();
    assert_eq!(on.to_query(), alloc::format!("{v}&page=roofline&{rest}"));
}

#[test]
fn decode_encode_decode_is_stable() {
    for q in [
        "op=gemm:1.23456789,2.5,3e7",
        "op=elem:1e-3,1,1,1",
        "op=gemm:0.1,0.2,0.30000000000000004",
        "sys=trn2-16&sel=15&fail=3",
        "sys=trn2-16&sel=16",
        "sel=5&sys=trn2-16",
        "sys=gb200-nvl72&sel=71",
        "size=1.5GiB&nodes=3",
        "wtokens=1.234567e12&wprice=2.123456789",
        "kin=nvfp4&kins=b64e8m0&kseed=18446744073709551615",
    ] {
        let (a, _) = Scenario::from_query(q);
        let (b, notes) = Scenario::from_query(&a.to_query());
        assert_eq!(a, b, "{q}");
        assert!(notes.is_empty(), "{q}: {notes:?}");
    }
}

#[test]
fn hostile_links_are_bounded_and_named() {
    // An operation too large for finite FLOP is refused, not drawn as infinity.
    let (sc, notes) = Scenario::from_query("page=roofline&op=gemm:1e103,1e103,1e103");
    assert!(
        notes
            .iter()
            .any(|n| n.key == "op" && n.message.contains("1e15")),
        "{notes:?}"
    );
    assert!(sc
        .ops
        .iter()
        .all(|o| o.cost(Dtype::Bf16).intensity().get().is_finite()));
    // A vanishing message size is refused (the simulation would never end).
    let (sc, notes) = Scenario::from_query("size=1e-304");
    assert_eq!(sc.collectives.bytes, CollectivesView::default().bytes);
    assert_eq!(notes.len(), 1);
    // Too many nodes is said, not silently clamped.
    let (sc, notes) = Scenario::from_query("wnodes=5000");
    assert_eq!(sc.job.nodes, Job::default().nodes);
    assert!(notes[0].message.contains("4096"), "{notes:?}");
    // A count outside its key's range names the range the key table gives it.
    let hi = crate::keys::MAX_SERVE_DEGREE;
    let (sc, notes) = Scenario::from_query(&alloc::format!("v=6&wadp={}", hi + 1));
    assert_eq!(sc.job.attn_dp, None);
    assert!(
        notes[0].message.contains(&alloc::format!("from 1 to {hi}")),
        "{notes:?}"
    );
    // A million bad ids make 20 short notices and a count, not half a million.
    let q = alloc::format!("chips={}", alloc::vec!["nope"; 200_000].join(","));
    let (_, notes) = Scenario::from_query(&q);
    assert_eq!(notes.len(), MAX_NOTICES + 1);
    assert!(notes.iter().all(|n| n.message.len() < 400));
    let long = alloc::format!("wsys={}", "x".repeat(1 << 20));
    let (_, notes) = Scenario::from_query(&long);
    assert!(notes[0].message.len() < 400);
}

#[test]
fn default_round_trips() {
    let s = Scenario::default();
    let (back, notes) = Scenario::from_query(&s.to_query());
    assert_eq!(back, s);
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn full_state_round_trips() {
    let mut e = ChipEdit::clone_of(&catalog::find("trn2").unwrap());
    e.name = "Trn2 & friends, 3.2 TB/s".into();
    e.set(Field::HbmBandwidth, 3.2e12).unwrap();
    e.set(Field::Dense(Dtype::Bf16), 7.1e14).unwrap();
    let s = Scenario {
        page: Page::Roofline,
        chips: alloc::vec!["custom-1".into(), "h100-sxm".into()],
        format: Dtype::Fp8,
        roofline_formats: alloc::vec![Dtype::Fp8, Dtype::Bf16],
        ops: alloc::vec![OpSpec::parse_spec("gemm:1,2,3").unwrap()],
        custom: alloc::vec![e],
        topology: TopologyView {
            system: "gb200-nvl72".into(),
            selected: Some(71),
            failed: Some(3),
        },
        collectives: CollectivesView {
            systems: alloc::vec!["trn2-16".into(), "tpu-v6e-256".into()],
            ops: alloc::vec![Op::AllToAll, Op::Broadcast],
            algorithms: alloc::vec![Algorithm::Ring, Algorithm::Auto],
            nodes: 16,
            bytes: 524_288.0,
        },
        job: Job {
            system: "gb300-nvl72".into(),
            nodes: 8,
            model: "deepseek-v3".into(),
            dtype: Dtype::Fp8,
            micro_batch: Some(8),
            offload: Some(true),
            tokens: 1.5e13,
            global_batch: 4096,
            efficiency: Some(0.65),
            batch: 16,
            prompt: 4096,
            output: 1024,
            owned: true,
            usd_per_chip_hour: Some(3.25),
            discount: 0.3,
            years: 4.0,
            pue: 1.35,
            usd_per_kwh: 0.11,
            rental_option: Some(1),
            price_basis: Some("on-demand@2025-11-30".into()),
            link_reading: system::LinkReading::PerDirection,
            chip_usd: Some(27_500.0),
            cost_of_capital: 0.1,
            facility_usd_per_kw_month: 180.0,
            maintenance: 0.04,
            overlap: Some(0.65),
            network_usd: Some(2_500.0),
            load: 0.7,
            compare_with: "trn3-ultra-144".into(),
            lever: crate::job::Lever::Discount,
            ttft_s: 0.45,
            tpot_s: 0.04,
            curve_systems: alloc::vec!["gb300-nvl72".into(), "mi355x-8".into()],
            curve_per_usd: true,
            weight_dtype: Some(Dtype::Fp4),
            kv_dtype: Some(Dtype::Fp8),
            draft_tokens: 2,
            acceptance: 0.8,
            prefix_hit: 0.4,
            prefill_system: "hgx-b200-8".into(),
            decode_system: "trn2-ultra-64".into(),
            model_version: 2,
            fail_rate: Some(3e-5),
            repair_h: Some(12.0),
            restart_min: Some(4.0),
            ckpt_bytes_per_s: Some(5e9),
            expert_imbalance: Some(1.25),
            attn_dp: Some(8),
            ep: Some(8),
            sim_rate: 7.5,
            sim_traffic: "agentic".into(),
            sim_duration_s: 120.0,
            sim_prefix_cache: false,
            sim_engine: "sglang".into(),
            sim_vary: true,
            sim_host_kv_gb: 512.0,
            sim_host_bw_gbps: 64.0,
        },
        kernel: crate::kernels::KernelSpec {
            kernel: crate::kernels::Kernel::Softmax,
            m: 64,
            input: crate::kernels::Operand::parse("mxfp6").unwrap(),
            seed: 9,
            ..Default::default()
        },
        device: crate::kernels::device::parse_spec("cpu1:20.5,12;gpu:800,250").unwrap(),
        neuroncore: "trn3_mm_128x8192x8192_fp8_t128x2048x1024_b3_sB_h0.5".into(),
        nc_point: parse_nc_point("124.1,3.242e14"),
        embed: true,
        lesson: "torus".into(),
        compared: alloc::vec![
            compared::Saved {
                name: "Trn2 at $4/h & more".into(),
                query: "v=9&page=workload&wsys=trn2-16&wnodes=8&wkwh=0.1".into(),
            },
            compared::Saved {
                name: "GB200, 2 racks".into(),
                query: "v=7&wsys=gb200-nvl72&wnodes=2".into(),
            },
        ],
    };
    let q = s.to_query();
    let (back, notes) = Scenario::from_query(&q);
    assert_eq!(back, s, "{q}");
    assert!(notes.is_empty(), "{notes:?}");
    let chips = back.chosen_chips();
    assert_eq!(chips[0].id, "custom-1");
    assert!(chips[0].custom);
    assert_eq!(chips[0].hbm_bandwidth.value.get(), 3.2e12);
    assert!(chips[0].hbm_bandwidth.source.is_user());
}

#[test]
fn clones_and_removals_keep_ids_consistent() {
    let mut s = Scenario::default();
    assert_eq!(s.add_clone("trn2").as_deref(), Some("custom-1"));
    assert_eq!(s.add_clone("h200").as_deref(), Some("custom-2"));
    assert_eq!(s.add_clone("custom-1").as_deref(), Some("custom-3"));
    assert_eq!(s.custom[2].base, "trn2");
    assert_eq!(s.add_clone("nope"), None);
    s.remove_custom(0);
    assert_eq!(s.custom.len(), 2);
    assert!(s
        .chips
        .ends_with(&["custom-1".to_string(), "custom-2".to_string()]));
    let ids: Vec<String> = s.chosen_chips().iter().map(|c| c.id.clone()).collect();
    assert!(ids.ends_with(&["custom-1".to_string(), "custom-2".to_string()]));
    assert_eq!(
        s.chosen_chips().last().unwrap().based_on.as_deref(),
        Some("trn2")
    );
}

#[test]
fn empty_op_list_survives() {
    let s = Scenario {
        ops: Vec::new(),
        ..Scenario::default()
    };
    assert_eq!(Scenario::from_query(&s.to_query()).0.ops, Vec::new());
}

#[test]
fn damaged_links_keep_what_they_can() {
    let (s, notes) = Scenario::from_query(
        "?v=1&page=nowhere&chips=trn2,bogus,h200&fmt=fp7&rfmt=fp8,xx&op=gemm:1,2&op=gemm:4,4,4&zzz=1&custom=nochip|name=x",
    );
    assert_eq!(s.page, Page::Chips);
    assert_eq!(s.chips, ["trn2", "h200"]);
    assert_eq!(s.format, Dtype::Bf16);
    assert_eq!(s.roofline_formats, [Dtype::Fp8]);
    assert_eq!(s.ops, [OpSpec::parse_spec("gemm:4,4,4").unwrap()]);
    assert!(s.custom.is_empty());
    let keys: Vec<&str> = notes.iter().map(|n| n.key.as_str()).collect();
    assert_eq!(
        keys,
        ["custom", "page", "chips", "fmt", "rfmt", "op", "zzz"]
    );
    assert!(notes[2].message.contains("bogus"));
}

#[test]
fn damaged_topology_and_collective_settings_keep_defaults() {
    let (s, notes) = Scenario::from_query(
        "sys=trn2-16&sel=99&fail=x&csys=gb200-nvl72,warp-drive&cop=all-gather,gossip&calgo=magic&nodes=0&size=-5GiB",
    );
    assert_eq!(s.topology.system, "trn2-16");
    assert_eq!(s.topology.selected, None);
    assert_eq!(s.topology.failed, None);
    assert_eq!(s.collectives.systems, ["gb200-nvl72"]);
    assert_eq!(s.collectives.ops, [Op::AllGather]);
    assert_eq!(
        s.collectives.algorithms,
        CollectivesView::default().algorithms
    );
    assert_eq!(s.collectives.nodes, 1);
    assert_eq!(s.collectives.bytes, CollectivesView::default().bytes);
    let keys: Vec<&str> = notes.iter().map(|n| n.key.as_str()).collect();
    for k in [
        "fail", "csys", "cop", "calgo", "calgo", "nodes", "size", "sel",
    ] {
        assert!(keys.contains(&k), "{k} in {keys:?}");
    }
    assert!(notes.iter().any(|n| n.message.contains("16-chip")));
    assert_eq!(Scenario::from_query("size=8B").0.collectives.bytes, 8.0);
}

#[test]
fn damaged_job_settings_keep_defaults() {
    let (s, notes) = Scenario::from_query(
        "wsys=x&wmodel=y&wdtype=fp7&wnodes=0&weff=2&wpue=0.5&wtokens=abc&wown=1",
    );
    let d = Job::default();
    assert_eq!(
        (s.job.system.as_str(), s.job.model.as_str()),
        (d.system.as_str(), d.model.as_str())
    );
    assert_eq!(
        (s.job.nodes, s.job.efficiency, s.job.pue, s.job.tokens),
        (d.nodes, d.efficiency, d.pue, d.tokens)
    );
    assert!(s.job.owned);
    assert_eq!(notes.len(), 7, "{notes:?}");
}

#[test]
fn garbage_never_panics() {
    for q in [
        "%",
        "%%%",
        "a=%zz&&=&chips=,,,",
        "v=99",
        "chips=%FF%FE",
        "op=moe:",
        "custom=|||",
    ] {
        let (s, _) = Scenario::from_query(q);
        assert!(!s.chips.is_empty());
    }
    assert!(!Scenario::from_query("v=99").1.is_empty());
}

#[test]
fn percent_codec() {
    assert_eq!(dec(&enc("a b&c=d|é,%")), "a b&c=d|é,%");
    assert_eq!(dec("%4"), "%4");
    assert_eq!(dec("%zz"), "%zz");
}

#[test]
fn a_step_operation_is_placed_on_the_roofline_by_link() {
    let mut s = Scenario::default();
    s.job.system = "hgx-h100-8".into();
    s.job.dtype = Dtype::Fp8;
    let part = crate::breakdown::train_step(&s.job).unwrap();
    let mlp = part
        .ops
        .iter()
        .find(|o| o.flop > 0.0 && o.bytes > 0.0)
        .unwrap();
    let placed = s.placing(mlp).unwrap();
    assert_eq!(placed.page, Page::Roofline);
    assert!(placed.chips.iter().any(|c| c == "h100-sxm"));
    assert!(placed.roofline_formats.contains(&Dtype::Fp8));
    // The link carries it: the operation comes back from the query with its counts.
    let (back, notes) = Scenario::from_query(&placed.to_query());
    assert!(notes.is_empty(), "{notes:?}");
    let Some(OpSpec::Work { flop, bytes, name }) = back.ops.last() else {
        panic!("{:?}", back.ops)
    };
    // One call of it, at the step's intensity.
    assert!(mlp.count >= 1.0);
    let per = |x: f64| x / mlp.count;
    assert!((flop / per(mlp.flop) - 1.0).abs() < 1e-12, "{flop}");
    assert!((bytes / per(mlp.bytes) - 1.0).abs() < 1e-12, "{bytes}");
    assert_eq!(name, &mlp.name);
    // Placing it again adds nothing; a collective has no place on a roofline.
    assert_eq!(placed.placing(mlp).unwrap().ops.len(), placed.ops.len());
    let comm = part.ops.iter().find(|o| o.flop == 0.0).unwrap();
    assert!(s.placing(comm).is_none());
}

/// A Compare link carries its scenarios; what cannot be one is named and left out, and the
/// rest stay.
#[test]
fn compared_scenarios_are_read_like_any_part_of_a_link() {
    let entry = |name: &str, query: &str| {
        format!(
            "cmp={}",
            enc(&compared::entry_text(&compared::Saved {
                name: name.into(),
                query: query.into(),
            }))
        )
    };
    let good = entry("A", "v=9&wsys=hgx-h100-8&wnodes=4");
    let (s, notes) = Scenario::from_query(&format!(
        "v=9&page=compare&{good}&cmp=no-bar&{}&{}&{good}",
        entry("bad", "v=9&wnodes=0"),
        entry("nested", &format!("v=9&{good}"))
    ));
    assert_eq!(s.page, Page::Compare);
    assert_eq!(s.compared.len(), 2, "{notes:?}");
    assert_eq!(s.compared[0].query, "v=9&wsys=hgx-h100-8&wnodes=4");
    assert_eq!(notes.len(), 3, "{notes:?}");
    assert!(notes.iter().all(|n| n.key == "cmp"));
    assert!(notes[0].message.contains("'|'"));
    assert!(notes[1].message.contains("wnodes"));
    assert!(notes[2].message.contains("comparison of its own"));
    // At most four, and each at most a scenario's length.
    let many = alloc::vec![good.clone(); 6].join("&");
    let (s, notes) = Scenario::from_query(&format!("v=9&{many}"));
    assert_eq!(s.compared.len(), compared::MAX_COMPARED);
    assert!(notes[0].message.contains("more than 4"));
    let long = entry(
        "long",
        &format!("v=9&wsys={}", "x".repeat(compared::MAX_QUERY)),
    );
    let (s, notes) = Scenario::from_query(&format!("v=9&{long}"));
    assert!(s.compared.is_empty() && notes[0].message.contains("bytes"));
    // A name cannot break the format: its separator becomes a space.
    let (s, _) = Scenario::from_query(&format!("v=9&{}", entry("a|b", "v=9")));
    assert_eq!(s.compared[0].name, "a b");
    assert_eq!(compared::clean_name("a|b\tc"), "a b c");
}
