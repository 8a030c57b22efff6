//! One crate's module tree, read from its root file by following its `mod name;` declarations,
//! and its import graph: which module names which (with the names it takes), so that circles
//! among its files, and among the folders of each of its folders, can be found and shown.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::circles::{knots, Circle, Graph, Tie};
use crate::code::{code_of, without_test_modules};
use crate::error::{read_text, ReadError};
use crate::paths::{declared_modules, referenced_paths, ModulePath};

/// The modules of one crate (a library, a binary) and what each imports.
#[derive(Clone, Debug)]
pub struct CrateGraph {
    files: BTreeMap<ModulePath, PathBuf>,
    /// Each module, with the modules it names and the names it takes from each.
    imports: BTreeMap<ModulePath, BTreeMap<ModulePath, BTreeSet<String>>>,
}

impl CrateGraph {
    /// Reads the crate whose root is `root_file` (`src/lib.rs`, `src/main.rs`,
    /// `src/bin/name.rs`): the modules it declares, file by file, and the paths each names.
    pub fn read(root_file: &Path) -> Result<CrateGraph, ReadError> {
        let mut files = BTreeMap::new();
        let mut code = BTreeMap::new();
        let mut work = vec![(ModulePath::new(), root_file.to_path_buf())];
        while let Some((module, file)) = work.pop() {
            let text = without_test_modules(&code_of(&read_text(&file)?));
            // The root and a `mod.rs` keep their modules beside them; `a/b.rs` keeps them in `a/b/`.
            let owns_folder = module.is_empty() || file.file_name().is_some_and(|f| f == "mod.rs");
            let folder = if owns_folder { file.parent().map(Path::to_path_buf) } else { Some(file.with_extension("")) };
            let folder = folder.unwrap_or_default();
            for name in declared_modules(&text) {
                let candidates = [folder.join(format!("{name}.rs")), folder.join(&name).join("mod.rs")];
                let child_file = candidates
                    .into_iter()
                    .find(|c| c.is_file())
                    .ok_or_else(|| ReadError::MissingModule { file: file.clone(), name: name.clone() })?;
                let mut child = module.clone();
                child.push(name);
                work.push((child, child_file));
            }
            files.insert(module.clone(), file);
            code.insert(module, text);
        }
        let mut imports = BTreeMap::new();
        for (module, text) in &code {
            let edges: &mut BTreeMap<ModulePath, BTreeSet<String>> = imports.entry(module.clone()).or_default();
            for path in referenced_paths(text, module) {
                let owner = owner(&path, &files);
                if &owner != module {
                    // The item taken, or the module itself where the path names it whole.
                    let name = path.get(owner.len()).or(owner.last()).cloned().unwrap_or_else(|| "crate".into());
                    edges.entry(owner).or_default().insert(name);
                }
            }
        }
        Ok(CrateGraph { files, imports })
    }

    /// Each module of the crate with its file.
    pub fn files(&self) -> &BTreeMap<ModulePath, PathBuf> {
        &self.files
    }

    /// Each module with the modules it imports.
    pub fn file_graph(&self) -> Graph<ModulePath> {
        self.imports.iter().map(|(m, edges)| (m.clone(), edges.keys().cloned().collect())).collect()
    }

    /// The circles among the crate's files, one per knot.
    pub fn file_circles(&self) -> Vec<Circle> {
        knots(&self.file_graph())
            .into_iter()
            .map(|(knot, circle)| Circle {
                knot: knot.iter().map(|m| self.files[m].clone()).collect(),
                ties: circle.windows(2).map(|w| self.tie(&w[0], &w[1])).collect(),
                circle: circle.iter().map(|m| self.files[m].clone()).collect(),
            })
            .collect()
    }

    /// The arrows between the parts of `folder` (each a file or a folder of its own, by name):
    /// a part imports another where a module in it imports one in the other.
    pub fn folder_imports(&self, folder: &[String]) -> Graph<String> {
        let mut out = Graph::new();
        for (from, edges) in &self.imports {
            let Some(a) = part_of(folder, from) else { continue };
            let arrows = out.entry(a.clone()).or_default();
            for b in edges.keys().filter_map(|to| part_of(folder, to)).filter(|b| *b != a) {
                arrows.insert(b);
            }
        }
        out
    }

    /// The circles among the parts of each folder of the crate (a folder counting as one part),
    /// where one of the parts is a folder: a circle of files alone is a file circle.
    pub fn folder_circles(&self) -> Vec<Circle> {
        let mut out = Vec::new();
        for folder in self.folders() {
            for (knot, circle) in knots(&self.folder_imports(&folder)) {
                let part = |name: &String| {
                    let mut m = folder.clone();
                    m.push(name.clone());
                    m
                };
                if circle.iter().all(|name| !self.is_folder(&part(name))) {
                    continue;
                }
                out.push(Circle {
                    knot: knot.iter().map(|n| self.place(&part(n))).collect(),
                    ties: circle.windows(2).map(|w| self.first_tie_between(&part(&w[0]), &part(&w[1]))).collect(),
                    circle: circle.iter().map(|n| self.place(&part(n))).collect(),
                });
            }
        }
        out
    }

    /// The modules that have modules of their own.
    fn folders(&self) -> BTreeSet<ModulePath> {
        self.files.keys().filter(|m| !m.is_empty()).map(|m| m[..m.len() - 1].to_vec()).collect()
    }

    fn is_folder(&self, module: &[String]) -> bool {
        self.files.keys().any(|m| m.len() > module.len() && m.starts_with(module))
    }

    /// Where a module stands: its file, or for a module with modules of its own, its folder.
    fn place(&self, module: &ModulePath) -> PathBuf {
        let file = &self.files[module];
        if !self.is_folder(module) {
            file.clone()
        } else if file.file_name().is_some_and(|f| f == "mod.rs") {
            file.parent().map(Path::to_path_buf).unwrap_or_default()
        } else {
            file.with_extension("")
        }
    }

    fn tie(&self, from: &ModulePath, to: &ModulePath) -> Tie {
        Tie { from: self.files[from].clone(), to: self.files[to].clone(), names: self.imports[from][to].clone() }
    }

    /// The first arrow from a module in or under `a` to one in or under `b`.
    fn first_tie_between(&self, a: &[String], b: &[String]) -> Tie {
        self.imports
            .iter()
            .filter(|(from, _)| from.starts_with(a))
            .find_map(|(from, edges)| edges.keys().find(|to| to.starts_with(b)).map(|to| self.tie(from, to)))
            .expect("an arrow between two parts stands for an import")
    }
}

/// The part of `folder` that `module` is in (its name), if it is under `folder`.
fn part_of(folder: &[String], module: &[String]) -> Option<String> {
    (module.len() > folder.len() && module.starts_with(folder)).then(|| module[folder.len()].clone())
}

/// The module a path names an item of: its longest prefix that is a module.
fn owner(path: &[String], known: &BTreeMap<ModulePath, PathBuf>) -> ModulePath {
    (0..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| known.contains_key(p)).unwrap_or_default()
}
