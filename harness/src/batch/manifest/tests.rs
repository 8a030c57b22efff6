//! Tests of manifest parsing and expansion: configs, modes, budgets, preparation.

use super::*;

fn parse_in(dir: &Path, text: &str) -> Result<Manifest> {
    parse(text, &dir.join("m.toml"), &mut |p| bail!("unexpected preparation of {}", p.subject))
}

fn dir_with(files: &[&str]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for f in files {
        std::fs::write(d.path().join(f), "int main(void){return 0;}").unwrap();
    }
    d
}

#[test]
fn the_results_directory_is_the_command_lines_else_the_manifests_else_results_name() {
    let path = Path::new("/m/batch.toml");
    let with_out = "name = \"n\"\nout = \"shared/n\"\n";
    assert_eq!(name_and_output(with_out, path, None).unwrap(), ("n".to_string(), PathBuf::from("/m/shared/n")));
    assert_eq!(name_and_output(with_out, path, Some(Path::new("o"))).unwrap().1, PathBuf::from("o"));
    assert_eq!(name_and_output("name = \"n\"", path, None).unwrap().1, PathBuf::from("results/n"));
}

#[test]
fn expands_subjects_modes_and_configs() {
    let d = dir_with(&["a.c"]);
    let m = parse_in(
        d.path(),
        r#"name = "t"
[defaults]
mode = ["seeded", "complete"]
configs = ["caches-on", "caches-off"]
[[subject]]
name = "a"
source = "a.c"
seeds = ["x=1", "x=2,y=3"]
"#,
    )
    .unwrap();
    let ids: Vec<&str> = m.jobs.iter().map(|j| j.id.as_str()).collect();
    assert_eq!(ids, ["a.complete.caches-on", "a.complete.caches-off", "a.seeded.caches-on", "a.seeded.caches-off"]);
    assert_eq!(m.jobs[3].args[..7], ["a.c", "--mode", "seeded", "--seed", "x=1", "--seed", "x=2,y=3"]);
    assert!(m.jobs[3].args.contains(&"--no-cex-cache".to_string()));
}

#[test]
fn a_job_stops_itself_below_the_memory_it_is_killed_at() {
    let d = dir_with(&["a.c"]);
    let text = "name = \"t\"\n[defaults]\nmode = [\"complete\"]\nconfigs = [\"caches-on\"]\nmax_memory_mb = 2048\n\
                [[subject]]\nname = \"a\"\nsource = \"a.c\"\n\
                [[subject]]\nname = \"b\"\nsource = \"a.c\"\nflags = [\"--max-memory\", \"0\"]\n";
    let m = parse_in(d.path(), text).unwrap();
    let memory_flags = |args: &[String]| -> Vec<String> {
        let at: Vec<usize> = args.iter().enumerate().filter(|(_, a)| *a == "--max-memory").map(|(i, _)| i).collect();
        at.iter().map(|&i| args[i + 1].clone()).collect()
    };
    assert_eq!(memory_flags(&m.jobs[0].args), ["1792"]);
    assert_eq!(memory_flags(&m.jobs[1].args), ["0"], "the subject's own --max-memory stays the only one");
    assert_eq!(run_memory_limit(1), 1);
}

#[test]
fn project_subjects_take_the_prepared_program_flags_and_seeds() {
    let d = dir_with(&[]);
    std::fs::create_dir(d.path().join("p")).unwrap();
    let text = "name = \"t\"\n[defaults]\nmode = [\"complete\", \"seeded\"]\nseeds = [\"x=1\"]\nprepare = [\"prep\"]\nreplay = true\n[[subject]]\nname = \"a\"\nproject = \"p\"\n";
    let prepared = |seeds: Vec<String>| {
        let mode_flags =
            BTreeMap::from([("seeded".to_string(), vec!["--sym-args".into(), "0".into(), "1".into(), "2".into()])]);
        move |p: &Preparation| -> Result<Prepared> {
            assert_eq!(
                (p.subject.as_str(), p.project.as_str(), p.command.as_slice()),
                ("a", "p", &["prep".to_string()][..])
            );
            Ok(Prepared {
                source: "u.bc".into(),
                flags: vec!["--libc".into(), "musl".into()],
                mode_flags: mode_flags.clone(),
                seeds: seeds.clone(),
                seed_selection: None,
                dir: PathBuf::from("/prep/a"),
            })
        }
    };
    let m = parse(text, &d.path().join("m.toml"), &mut prepared(vec!["n_args=0".into()])).unwrap();
    let seeded = &m.jobs[1];
    assert_eq!((seeded.source.as_str(), seeded.dir.as_path()), ("u.bc", Path::new("/prep/a")));
    // The prepared seeds, not [defaults]'s; the prepared flags, then the mode's own.
    assert_eq!(
        seeded.args[..9],
        ["u.bc", "--mode", "seeded", "--seed", "n_args=0", "--libc", "musl", "--sym-args", "0"]
    );
    assert!(!m.jobs[0].args.contains(&"--sym-args".to_string()) && m.jobs[1].skip.is_none());
    let m = parse(text, &d.path().join("m.toml"), &mut prepared(Vec::new())).unwrap();
    assert!(matches!(&m.jobs[1].skip, Some(Skip::NoSeeds(s)) if s.starts_with("no seeds")), "{:?}", m.jobs[1].skip);
    let unreplayed = text.replace("replay = true\n", "");
    let e = format!("{:#}", parse(&unreplayed, &d.path().join("m.toml"), &mut prepared(Vec::new())).unwrap_err());
    assert!(e.contains("m.toml:7") && e.contains("replay = true"), "{e}");
}

#[test]
fn errors_name_line_and_field() {
    let d = dir_with(&["a.c"]);
    let err = |t: &str| format!("{:#}", parse_in(d.path(), t).unwrap_err());
    let e = err("name = \"t\"\n[[subject]]\nname = \"a\"\nsource = \"a.c\"\nmode = \"complet\"\n");
    assert!(e.contains("m.toml:5") && e.contains("`mode`") && e.contains("complet"), "{e}");
    let e = err("name = \"t\"\n[[subject]]\nname = \"a\"\nsource = \"a.c\"\nsedes = []\n");
    assert!(e.contains("line 5") && e.contains("sedes"), "{e}");
    let e = err("name = \"t\"\n[[subject]]\nname = \"a\"\nsource = \"b.c\"\n");
    assert!(e.contains("m.toml:4") && e.contains("`source`"), "{e}");
    let e = err("name = \"t\"\n[[subject]]\nname = \"a\"\nsource = \"a.c\"\nmode = \"seeded\"\n");
    assert!(e.contains("m.toml:3") && e.contains("seeds"), "{e}");
    let e = err("name = \"t\"\n[[subject]]\nname = \"a\"\nsource = \"a.c\"\nconfigs = [\"fast\"]\n");
    assert!(e.contains("m.toml:5") && e.contains("unknown config `fast`"), "{e}");
    let e = err("name = \"t\"\n[[subject]]\nname = \"a b\"\nsource = \"a.c\"\n");
    assert!(e.contains("m.toml:3"), "{e}");
    let e =
        err("name = \"t\"\n[[subject]]\nname = \"a\"\nsource = \"a.c\"\n[[subject]]\nname = \"a\"\nsource = \"a.c\"\n");
    assert!(e.contains("m.toml:6") && e.contains("twice"), "{e}");
    let e = err("name = \"t\"\n[[subject]]\nname = \"a\"\nsource = \"a.c\"\nmax_time = -1\n");
    assert!(e.contains("m.toml:5") && e.contains("max_time"), "{e}");
    std::fs::create_dir(d.path().join("p")).unwrap();
    let e = err("name = \"t\"\n[[subject]]\nname = \"a\"\nproject = \"p\"\n");
    assert!(e.contains("m.toml:3") && e.contains("`prepare`"), "{e}");
    let e = err("name = \"t\"\n[[subject]]\nname = \"a\"\nsource = \"a.c\"\nproject = \"p\"\n");
    assert!(e.contains("m.toml:4") && e.contains("not both"), "{e}");
    let e = err("name = \"t\"\n[[subject]]\nname = \"a\"\nproject = \"q\"\nprepare = [\"x\"]\n");
    assert!(e.contains("m.toml:4") && e.contains("`project`"), "{e}");
    let e = err("name = \"t\"\n[[subject]]\nname = \"a\"\n");
    assert!(e.contains("m.toml:3") && e.contains("`source`"), "{e}");
    let e = err("name = [\n");
    assert!(e.contains("line 1") || e.contains("line 2"), "{e}");
}

#[test]
fn planning_prepares_nothing_and_names_lines() {
    let d = dir_with(&["a.c"]);
    std::fs::create_dir(d.path().join("p")).unwrap();
    let marker = d.path().join("prepared");
    let text = format!(
        "name = \"t\"\n[[subject]]\nname = \"a\"\nsource = \"a.c\"\n[[subject]]\nname = \"b\"\nproject = \"p\"\nprepare = [\"touch\", \"{}\"]\nreplay = true\nmode = [\"complete\", \"seeded\"]\n",
        marker.display()
    );
    let path = d.path().join("m.toml");
    let planned = plan(&text, &path).unwrap();
    assert!(!marker.exists(), "planning ran the preparation");
    assert_eq!(planned.name, "t");
    let subjects: Vec<(&str, &str)> = planned.subjects.iter().map(|s| (s.name.as_str(), s.at.as_str())).collect();
    let at = |line: usize| format!("{}:{line}", path.display());
    assert_eq!(subjects, [("a", at(3).as_str()), ("b", at(6).as_str())]);
    match &planned.subjects[1].program {
        Program::Project(p) => {
            assert_eq!((p.project.as_str(), p.command.len()), ("p", 2));
        }
        Program::Source(s) => panic!("a project subject planned as the program {s}"),
    }
    // Its seeds come from the preparation: none yet, and seeded mode is not refused.
    assert_eq!((planned.subjects[1].seeds.as_ref(), planned.subjects[1].modes.len()), (None, 2));
    // What the manifest alone shows wrong is found before anything is prepared.
    let e = format!("{:#}", plan(&text.replace("replay = true\n", ""), &path).unwrap_err());
    assert!(e.contains(&at(6)) && e.contains("replay = true"), "{e}");
    let e = format!(
        "{:#}",
        plan(&text.replace("source = \"a.c\"", "source = \"a.c\"\nmode = \"seeded\""), &path).unwrap_err()
    );
    assert!(e.contains(&at(3)) && e.contains("needs `seeds`"), "{e}");
    assert!(!marker.exists());
    // Expanding prepares, in manifest order; a failed preparation is its subject's jobs'
    // reason not to run, naming the line.
    let mut asked = Vec::new();
    let m = expand(planned, &mut |p| {
        asked.push(p.subject.clone());
        bail!("no preparation here")
    })
    .unwrap();
    assert_eq!(asked, ["b"]);
    let reasons: Vec<Option<&Skip>> = m.jobs.iter().map(|j| j.skip.as_ref()).collect();
    let reason = format!("{}: subject `b`: cannot prepare the project: no preparation here", at(6));
    assert_eq!(reasons, [None, Some(&Skip::NotPrepared(reason.clone())), Some(&Skip::NotPrepared(reason))]);
}
