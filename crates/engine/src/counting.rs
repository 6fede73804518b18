//! Facet value counts over the documents that match everything except a field's own selection
//! (drill-sideways): by bitmap sizes over the whole space, by walking the scope's documents or intersecting
//! the values' bitmaps (whichever costs less), by a cut that counts only what a group can show, several
//! groups walking one scope together, and the work shared between two threads.

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::sync::OnceLock;

use roaring::RoaringBitmap;
use studio_model::FacetSetting;

use super::index::{FieldIndex, SpaceIndex};
use super::packed::Packed;
use super::tuning::{EnginePath, Tuned};

/// Counts, per value of `field`, the documents of `scope` having it (directly or through a descendant).
/// With `only`, values outside it may be left at 0 when that saves work.
pub(crate) fn count_values(field: &FieldIndex, scope: &RoaringBitmap, only: Option<&[u32]>) -> Vec<u64> {
    if is_whole_space(field, scope) {
        // Every document counts (the preview as opened: no text, no selection): a value's count is the size of
        // its documents' bitmap, which holds its descendants' documents too.
        return field.sizes.clone();
    }
    let wanted = only.map_or(field.values.len(), <[u32]>::len);
    if walk_is_cheaper(field, scope, wanted) {
        return walk(field, scope.iter());
    }
    let mut counts = vec![0u64; field.values.len()];
    if let Some(only) = only {
        for &v in only {
            counts[v as usize] = scope.intersection_len(&field.values[v as usize].docs);
        }
    } else {
        for (count, value) in counts.iter_mut().zip(&field.values) {
            *count = scope.intersection_len(&value.docs);
        }
    }
    counts
}

/// Counts, per value of `field`, the documents `docs` having it (directly or through a descendant), by walking
/// them.
fn walk(field: &FieldIndex, docs: impl Iterator<Item = u32>) -> Vec<u64> {
    if field.flat {
        // A document's direct values are distinct, and without ancestors each counts once.
        let mut counts = vec![0u64; field.values.len()];
        for doc in docs {
            for &v in field.direct_values(doc) {
                counts[v as usize] += 1;
            }
        }
        counts
    } else {
        let mut tally = Tally::new(field);
        for doc in docs {
            for &v in field.direct_values(doc) {
                tally.add(field, doc, v);
            }
        }
        tally.finish(field)
    }
}

/// Counts of a field with a hierarchy over walked documents, each document counting once for each of its
/// values and every value above them. Most documents' values have nothing above them in common (one concept
/// per scheme): such a document adds one to each of its direct values only, and each value's total is added to
/// the values above it once at the end, a third of the steps of adding to every ancestor per document. Any
/// other document counts its values and their ancestors itself, marking each so that it counts once.
pub(crate) struct Tally {
    counts: Vec<u64>,
    direct: Vec<u64>,
    /// The last document (of those counting themselves) each value was counted for.
    stamps: Vec<u32>,
}

impl Tally {
    pub(crate) fn new(field: &FieldIndex) -> Tally {
        let n = field.values.len();
        Tally { counts: vec![0; n], direct: vec![0; n], stamps: vec![u32::MAX; n] }
    }

    /// Counts direct value `v` of document `doc`.
    #[inline]
    pub(crate) fn add(&mut self, field: &FieldIndex, doc: u32, v: u32) {
        if field.shares_ancestors(doc) {
            for &w in field.closure(v) {
                if self.stamps[w as usize] != doc {
                    self.stamps[w as usize] = doc;
                    self.counts[w as usize] += 1;
                }
            }
        } else {
            self.direct[v as usize] += 1;
        }
    }

    /// The counts: per value, the documents having it or a value below it.
    pub(crate) fn finish(mut self, field: &FieldIndex) -> Vec<u64> {
        for (v, &n) in self.direct.iter().enumerate().filter(|(_, &n)| n > 0) {
            for &w in field.closure(v as u32) {
                self.counts[w as usize] += n;
            }
        }
        self.counts
    }
}

/// Whether `scope` holds every document of the search space (scopes only ever hold its dense numbers).
fn is_whole_space(field: &FieldIndex, scope: &RoaringBitmap) -> bool {
    let documents = field.documents();
    documents > 0 && scope.len() == documents
}

/// Whether walking the documents of `scope` costs no more than intersecting it with `wanted` values' bitmaps
/// (an empty scope is walked: nothing to do).
fn walk_is_cheaper(field: &FieldIndex, scope: &RoaringBitmap, wanted: usize) -> bool {
    let (walk, intersect) = costs(field, scope, wanted);
    walk <= intersect
}

/// The cost of counting `wanted` values of `field` over `scope` by walking its documents and by intersecting
/// bitmaps, in walking steps. Walking costs one step per value (or ancestor) of each document; one
/// intersection as [`cut_steps`] says.
fn costs(field: &FieldIndex, scope: &RoaringBitmap, wanted: usize) -> (f64, f64) {
    let walk = scope.len() as f64 * field.values_per_doc.max(1.0);
    (walk, wanted as f64 * cut_steps(scope))
}

/// The cost of one value's intersection with `scope`, in walking steps: 256 per 65,536-document block of a
/// scope dense enough for roaring to hold its blocks as bitmaps (the factor with the lowest facet-only times of
/// `studio bench` at 100k documents among 8 to 4,096, docs/performance.md), about half a step per document of a
/// sparser one, each of which is looked up in the value's block (measured at 1M: 0.02–0.03 ms an intersection
/// with half of the documents, 0.26 ms with 61,000 scattered ones).
fn cut_steps(scope: &RoaringBitmap) -> f64 {
    let (Some(first), Some(last)) = (scope.min(), scope.max()) else { return 0.0 };
    let blocks = f64::from((last >> 16) - (first >> 16) + 1);
    if is_sparse(scope) {
        scope.len() as f64 / 2.0
    } else {
        256.0 * blocks
    }
}

/// Whether `scope` is too sparse for roaring to hold its blocks as bitmaps (fewer than 4,096 documents in a
/// block of 65,536, on average over the blocks it spans).
fn is_sparse(scope: &RoaringBitmap) -> bool {
    let (Some(first), Some(last)) = (scope.min(), scope.max()) else { return false };
    let blocks = u64::from((last >> 16) - (first >> 16) + 1);
    scope.len() < 4096 * blocks
}

/// What a flat group shows that lets counting stop early: the `maximum` values with the most documents
/// (sorted by count, descending), or the first `maximum` values by label that have documents (alphabetical,
/// ascending). Other orders need every count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cut {
    MostDocuments(usize),
    FirstByLabel(usize),
}

/// The cut of a group showing `field` with `setting`, if its order allows one and the field has a hierarchy.
/// A concept's documents include its descendants', so a few broad concepts hold most documents and the
/// counting stops after them; the values of a field without one are often about equally common (400 sources),
/// which a cut would count almost all of, one intersection each, before its bound stops it (measured slower
/// than walking the documents at 1M: docs/performance.md).
pub(crate) fn cut_of(field: &FieldIndex, setting: &FacetSetting) -> Option<Cut> {
    if setting.facet_mode == "hierarchical" || field.flat {
        return None;
    }
    let maximum = setting.maximum_terms.max(1) as usize;
    match (setting.sorting == "alphabetical", setting.sorting_order == "asc") {
        (false, false) => Some(Cut::MostDocuments(maximum)),
        (true, true) => Some(Cut::FirstByLabel(maximum)),
        _ => None,
    }
}

/// The counts a group cut by `cut` needs over `scope`: every value it can show and every `selected` one
/// counted exactly, the others left at 0 (a value left out has fewer documents in all than the last one
/// shown has in `scope`, or comes after the last one shown by label). Values are counted one by one by
/// intersecting bitmaps, most documents first or by label; `None` when that would cost more than walking
/// the scope's documents (as [`costs`] estimates both).
fn count_cut(field: &FieldIndex, scope: &RoaringBitmap, cut: Cut, selected: &[u32]) -> Option<Vec<u64>> {
    let (walk, _) = costs(field, scope, 1);
    let one = cut_steps(scope);
    let mut budget = if one > 0.0 { (walk / one / 4.0) as usize } else { 0 };
    let mut counts = vec![0u64; field.values.len()];
    // Which values are counted so far (a count of 0 is a count).
    let mut counted = vec![false; field.values.len()];
    let mut count = |v: u32, counts: &mut Vec<u64>, counted: &mut Vec<bool>| -> Option<u64> {
        if selected.contains(&v) {
            return Some(counts[v as usize]);
        }
        budget = budget.checked_sub(1)?;
        let c = scope.intersection_len(&field.values[v as usize].docs);
        counts[v as usize] = c;
        counted[v as usize] = true;
        Some(c)
    };
    for &v in selected {
        counts[v as usize] = scope.intersection_len(&field.values[v as usize].docs);
        counted[v as usize] = true;
    }
    match cut {
        Cut::MostDocuments(maximum) => {
            // The `maximum` best counts so far, the smallest on top.
            let mut best: BinaryHeap<Reverse<u64>> = BinaryHeap::with_capacity(maximum + 1);
            for &v in &field.by_size {
                let least = if best.len() == maximum { best.peek().map(|least| least.0) } else { None };
                if least.is_some_and(|least| field.sizes[v as usize] < least) {
                    break;
                }
                let value = &field.values[v as usize];
                // A value's documents include its descendants', so a value has no more documents in the scope
                // than any of its parents counted already.
                let parent = value.parents.iter().filter(|&&p| counted[p as usize]).map(|&p| counts[p as usize]).min();
                if least.zip(parent).is_some_and(|(least, parent)| parent < least) {
                    continue;
                }
                let c = count(v, &mut counts, &mut counted)?;
                if c > 0 {
                    best.push(Reverse(c));
                    if best.len() > maximum {
                        best.pop();
                    }
                }
            }
        }
        Cut::FirstByLabel(maximum) => {
            let mut found = 0;
            for &v in &field.by_name {
                if found == maximum {
                    break;
                }
                if count(v, &mut counts, &mut counted)? > 0 {
                    found += 1;
                }
            }
        }
    }
    Some(counts)
}

/// One count to make: `field`'s values (those of `only`, or all) over `scope`; with `cut`, only those a
/// group with that cut shows, and the `selected` ones.
pub(crate) struct CountJob<'a> {
    pub field: &'a FieldIndex,
    pub scope: Cow<'a, RoaringBitmap>,
    pub only: Option<Vec<u32>>,
    pub cut: Option<Cut>,
    pub selected: &'a [u32],
}

impl CountJob<'_> {
    fn count(&self) -> Vec<u64> {
        // Over the whole space every count is the size of a bitmap: nothing to cut.
        let cut = self.cut.filter(|_| !is_whole_space(self.field, &self.scope));
        if let Some(counts) = cut.and_then(|cut| count_cut(self.field, &self.scope, cut, self.selected)) {
            return counts;
        }
        count_values(self.field, &self.scope, self.only.as_deref())
    }

    /// Whether counting walks the scope's documents (no cut to try, not the whole space, walking cheaper than
    /// intersecting): such a count can be made in parts over ranges of the documents, which add up.
    fn walks(&self) -> bool {
        self.cut.is_none()
            && !is_whole_space(self.field, &self.scope)
            && walk_is_cheaper(self.field, &self.scope, self.only.as_ref().map_or(self.field.values.len(), Vec::len))
    }

    fn cost(&self) -> f64 {
        if is_whole_space(self.field, &self.scope) {
            return self.field.values.len() as f64;
        }
        let (walk, intersect) =
            costs(self.field, &self.scope, self.only.as_ref().map_or(self.field.values.len(), Vec::len));
        match self.cut {
            // A cut usually stops after a few values per value shown (else it falls back to walking): so
            // estimated, the two threads of `count_all` get work of about equal length.
            Some(Cut::MostDocuments(shown) | Cut::FirstByLabel(shown)) => {
                walk.min(intersect).min(4.0 * shown as f64 * cut_steps(&self.scope))
            }
            None => walk.min(intersect),
        }
    }
}

/// The cores this process may use, asked once (the answer reads cgroup files on Linux).
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

// The default of `Tuning::shared_work`, the steps of counting (as `costs` estimates them) above which a second
// thread takes part: about a millisecond of work, well above the cost of starting a thread.

/// Work for one thread of [`count_all`]: a job alone, a job's walk over the scope's documents in a range, or the
/// fields of jobs walking the same scope together in the packed values, over the scope's documents in a range
/// (a large walk is split in two halves, which the two threads take).
enum Task<'a> {
    One(usize),
    Part(usize, Range<u32>),
    Together(&'a Packed, Range<u32>),
}

/// The document of `scope` at which its second half begins.
fn middle(scope: &RoaringBitmap) -> u32 {
    scope.select((scope.len() / 2) as u32).unwrap_or(u32::MAX)
}

/// The counts of every job, in order. With `index`, jobs that would walk the same sparse scope (the result,
/// for every group without a selection of its own) walk it once together over its packed values, each thread
/// half of its documents when there is enough work to share. Other work is shared between this thread and a
/// second one, each taking the largest task left whenever it is free, when `tuned` allows two threads and the
/// work is above its shared work.
pub(crate) fn count_all(jobs: &[CountJob], index: Option<&SpaceIndex>, tuned: Tuned) -> Vec<Vec<u64>> {
    let shared_work = tuned.tuning.shared_work;
    let two_threads = tuned.tuning.counting_threads >= 2 && cores() > 1;
    let together: Vec<usize> = index.map_or_else(Vec::new, |index| walking_together(jobs, index));
    let packed = index.filter(|_| together.len() > 1).and_then(SpaceIndex::packed);
    // The fields walked together, each once (a walk counts all of a field's values, whatever a group shows of
    // them), by their number in the index; and per job walked together, its field's place among them.
    let mut fields: Vec<(usize, &FieldIndex)> = Vec::new();
    let mut shares: Vec<(usize, usize)> = Vec::new();
    let mut tasks: Vec<(Task, f64)> = Vec::new();
    if let (Some(packed), Some(index)) = (packed, index) {
        let number = |job: &CountJob| index.fields.iter().position(|f| std::ptr::eq(f, job.field));
        fields = together.iter().filter_map(|&i| Some((number(&jobs[i])?, jobs[i].field))).collect();
        fields.sort_by_key(|f| f.0);
        fields.dedup_by_key(|f| f.0);
        shares = together
            .iter()
            .filter_map(|&i| Some((i, fields.iter().position(|f| Some(f.0) == number(&jobs[i]))?)))
            .collect();
        let scope: &RoaringBitmap = &jobs[together[0]].scope;
        let cost = scope.len() as f64 * packed.per_document();
        if shares.is_empty() {
            // No field found in the index: every job counts alone.
        } else if cost >= shared_work && two_threads {
            tuned.taken.note(EnginePath::CountingTogetherHalved);
            let middle = middle(scope);
            tasks.push((Task::Together(packed, 0..middle), cost / 2.0));
            tasks.push((Task::Together(packed, middle..u32::MAX), cost / 2.0));
        } else {
            tasks.push((Task::Together(packed, 0..u32::MAX), cost));
        }
    }
    let walked: Vec<usize> = shares.iter().map(|s| s.0).collect();
    for (i, job) in jobs.iter().enumerate().filter(|(i, _)| !walked.contains(i)) {
        let cost = job.cost();
        // A walk long enough to share is walked in two halves: one such walk can be most of a search's counting
        // (a selected concept's group over the documents of a selected language).
        if cost >= shared_work && two_threads && job.walks() {
            tuned.taken.note(EnginePath::CountingWalkHalved);
            let middle = middle(&job.scope);
            tasks.push((Task::Part(i, 0..middle), cost / 2.0));
            tasks.push((Task::Part(i, middle..u32::MAX), cost / 2.0));
        } else {
            tasks.push((Task::One(i), cost));
        }
    }
    let run = |task: &Task| -> Vec<(usize, Vec<u64>)> {
        match task {
            Task::Together(packed, range) => {
                let counts = packed.count(&jobs[shares[0].0].scope, range.clone(), &fields);
                shares.iter().map(|&(i, at)| (i, counts[at].clone())).collect()
            }
            Task::One(i) => vec![(*i, jobs[*i].count())],
            Task::Part(i, range) => vec![(*i, walk(jobs[*i].field, jobs[*i].scope.range(range.clone())))],
        }
    };
    let mut out = vec![Vec::new(); jobs.len()];
    // The halves of a walk add up.
    let mut put = |done: Vec<(usize, Vec<u64>)>| {
        for (i, counts) in done {
            if out[i].is_empty() {
                out[i] = counts;
            } else {
                out[i].iter_mut().zip(counts).for_each(|(a, b)| *a += b);
            }
        }
    };
    let total: f64 = tasks.iter().map(|t| t.1).sum();
    if tasks.iter().any(|t| matches!(t.0, Task::Together(..))) {
        tuned.taken.note(EnginePath::CountingTogether);
    }
    if tasks.len() < 2 || total < shared_work || !two_threads {
        tasks.iter().for_each(|t| put(run(&t.0)));
        return out;
    }
    // The largest first: each thread takes the next task once it is free, so that estimates far off (a walk of
    // scattered documents costs more per step than an intersection) still leave the two about equally busy.
    tasks.sort_by(|a, b| b.1.total_cmp(&a.1));
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        while let Some((task, _)) = tasks.get(next.fetch_add(1, AtomicOrdering::Relaxed)) {
            done.push(run(task));
        }
        done
    };
    std::thread::scope(|s| {
        // Without a second thread (none can be started), this one takes every task.
        let helper = std::thread::Builder::new().spawn_scoped(s, work).ok();
        if helper.is_some() {
            tuned.taken.note(EnginePath::CountingSecondThread);
        }
        work().into_iter().for_each(&mut put);
        if let Some(helper) = helper {
            // A task that panicked there panics the search, as it would have here.
            helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)).into_iter().for_each(&mut put);
        }
    });
    out
}

/// The jobs that walk the same sparse scope of the result (borrowed, not one of their own), for which walking
/// is cheaper than intersecting, cut or not (a cut's intersections with a sparse scope are slow, and it mostly
/// gives up and walks): those of the first such scope. Over denser scopes each field's own arrays are read
/// about as fast as a cache line of every field's values per document (measured slower at 1M: 85,000
/// documents, 20 ms together against 12 alone).
pub(crate) fn walking_together(jobs: &[CountJob], index: &SpaceIndex) -> Vec<usize> {
    let walks = |job: &CountJob| {
        let wanted = job.only.as_ref().map_or(job.field.values.len(), Vec::len);
        is_sparse(&job.scope)
            && matches!(job.scope, Cow::Borrowed(_))
            && !is_whole_space(job.field, &job.scope)
            && walk_is_cheaper(job.field, &job.scope, wanted)
            && index.fields.iter().any(|f| std::ptr::eq(f, job.field))
    };
    let Some(first) = jobs.iter().position(walks) else { return Vec::new() };
    let scope: &RoaringBitmap = &jobs[first].scope;
    (first..jobs.len()).filter(|&i| walks(&jobs[i]) && std::ptr::eq::<RoaringBitmap>(&*jobs[i].scope, scope)).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use std::borrow::Cow;
    use std::collections::HashMap;

    use roaring::RoaringBitmap;

    use studio_model::FacetSetting;

    use super::{count_all, count_cut, count_values, cut_of, CountJob, Cut, Packed};
    use crate::facets::facet_group;
    use crate::index::{FacetValue, FieldIndex};
    use crate::tuning::{Tuned, Tuning};

    /// A concept field over `n` documents shaped like real ones: one top concept above ten broader ones
    /// above 300 narrower ones of very unequal sizes; each document has one narrower concept.
    fn concepts(n: u32) -> FieldIndex {
        let leaf = |d: u32| {
            let x = (f64::from(d) * 0.618_033_988_75).fract();
            (300.0 * x * x * x) as u32
        };
        let value = |v: u32| match v {
            0 => (None, Vec::new()),
            1..=10 => (Some(0), vec![0]),
            _ => (Some(1 + (v - 11) % 10), vec![1 + (v - 11) % 10, 0]),
        };
        let mut docs = vec![RoaringBitmap::new(); 311];
        for d in 0..n {
            let v = 11 + leaf(d);
            docs[v as usize].insert(d);
            for a in value(v).1 {
                docs[a as usize].insert(d);
            }
        }
        let list = docs
            .into_iter()
            .enumerate()
            .map(|(v, docs)| {
                let (parent, ancestors) = value(v as u32);
                let children = (0..311u32).filter(|&c| value(c).0 == Some(v as u32)).collect();
                FacetValue {
                    label: format!("c{}", 311 - v),
                    label_lower: format!("c{}", 311 - v),
                    uri: Some(format!("urn:c{v}")),
                    docs,
                    children,
                    parents: parent.into_iter().collect(),
                    ancestors,
                }
            })
            .collect();
        FieldIndex::from_parts(
            "dyn_uri_c".into(),
            list,
            HashMap::new(),
            (0..=n).collect(),
            (0..n).map(|d| 11 + leaf(d)).collect(),
        )
    }

    /// A flat group cut to what it shows (the most documents first, or the first by label) is the group
    /// every count gives, selected values included, over scopes dense and sparse; a field without a hierarchy
    /// is never cut.
    #[test]
    fn cut_groups_are_the_groups_of_every_count() {
        let n = 200_000;
        let field = concepts(n);
        let setting = |sorting: &str, order: &str, maximum: i32| FacetSetting {
            facet_mode: "flat".into(),
            sorting: sorting.into(),
            sorting_order: order.into(),
            maximum_terms: maximum,
            ..Default::default()
        };
        let scopes: Vec<RoaringBitmap> = vec![
            (0..n).step_by(2).collect(),
            (0..n / 3).collect(),
            (0..n).filter(|d| d % 97 == 3).collect(),
            (1..n).collect(),
        ];
        let mut cut_used = HashMap::new();
        for scope in &scopes {
            let every = count_values(&field, scope, None);
            for setting in
                [setting("count", "desc", 10), setting("count", "desc", 3), setting("alphabetical", "asc", 5)]
            {
                let cut = cut_of(&field, &setting).expect("a flat group of a hierarchy, sorted as it shows");
                for selected in [vec![], vec![300], vec![12, 5]] {
                    let Some(counts) = count_cut(&field, scope, cut, &selected) else { continue };
                    *cut_used.entry(format!("{cut:?}")).or_insert(0) += 1;
                    assert_eq!(
                        facet_group(&field, &setting, &counts, &selected),
                        facet_group(&field, &setting, &every, &selected),
                        "{cut:?} over {} documents, {selected:?} selected",
                        scope.len()
                    );
                }
            }
        }
        assert_eq!(cut_used.len(), 3, "each cut was cheaper than walking for some scopes: {cut_used:?}");
        assert!(cut_of(&field, &setting("count", "asc", 10)).is_none(), "ascending counts need every count");
        assert!(cut_of(&field, &FacetSetting { facet_mode: "hierarchical".into(), ..setting("count", "desc", 10) })
            .is_none());
        assert!(cut_of(&self::field(100, 10, false), &setting("count", "desc", 10)).is_none(), "no hierarchy");
    }

    /// A value is passed over only when a parent of it already has fewer documents in the scope than the last
    /// value shown: a narrower concept holding every document its parent has in the scope is still shown.
    #[test]
    fn a_cut_passes_over_only_what_a_parent_rules_out() {
        // T above A and zB; A1, A2 below A; B1, B2 below zB. Documents 0–59,999 are A's, the rest zB's (in
        // thousands, so that intersecting costs less than walking).
        const K: u32 = 1_000;
        let spans: [(&str, std::ops::Range<u32>, Option<u32>); 7] = [
            ("T", 0..100 * K, None),
            ("A", 0..60 * K, Some(0)),
            ("zB", 60 * K..100 * K, Some(0)),
            ("A1", 0..30 * K, Some(1)),
            ("A2", 30 * K..60 * K, Some(1)),
            ("B1", 60 * K..90 * K, Some(2)),
            ("B2", 90 * K..100 * K, Some(2)),
        ];
        let values: Vec<FacetValue> = spans
            .iter()
            .enumerate()
            .map(|(v, (label, docs, parent))| FacetValue {
                label: (*label).into(),
                label_lower: label.to_lowercase(),
                uri: Some(format!("urn:{label}")),
                docs: docs.clone().collect(),
                children: (0..7u32).filter(|&c| spans[c as usize].2 == Some(v as u32)).collect(),
                parents: parent.iter().copied().collect(),
                ancestors: match parent {
                    Some(0) => vec![0],
                    Some(p) => vec![*p, 0],
                    None => Vec::new(),
                },
            })
            .collect();
        let leaf = |d: u32| (3..7).find(|&v| spans[v as usize].1.contains(&d)).unwrap_or(6);
        let n = 100 * K;
        let field =
            FieldIndex::from_parts("c".into(), values, HashMap::new(), (0..=n).collect(), (0..n).map(leaf).collect());
        let setting = FacetSetting {
            facet_mode: "flat".into(),
            sorting: "count".into(),
            sorting_order: "desc".into(),
            maximum_terms: 2,
            ..Default::default()
        };
        // In the scope: T 40, A 10, A1 10, zB 30 and B1 30 (all of zB's), B1 first by label.
        let scope: RoaringBitmap = (0..10 * K).chain(60 * K..90 * K).collect();
        let cut = count_cut(&field, &scope, Cut::MostDocuments(2), &[]).expect("cheap enough to cut");
        let group = facet_group(&field, &setting, &cut, &[]);
        let shown: Vec<&str> = group.facets.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(shown, ["T", "B1"]);
        assert_eq!(group, facet_group(&field, &setting, &count_values(&field, &scope, None), &[]));
        assert_eq!(cut[3], 0, "A1 was passed over: A has 10 in the scope, fewer than the last shown");
    }

    /// A field over `n` documents where document `d` has value `d % values` and, when `parent` is set,
    /// every value lies below value 0.
    pub(crate) fn field(n: u32, values: u32, parent: bool) -> FieldIndex {
        let ancestors = |v: u32| if parent && v != 0 { vec![0] } else { Vec::new() };
        let list = (0..values)
            .map(|v| FacetValue {
                label: format!("v{v}"),
                label_lower: format!("v{v}"),
                uri: None,
                docs: if parent && v == 0 { (0..n).collect() } else { (v..n).step_by(values as usize).collect() },
                children: Vec::new(),
                parents: ancestors(v),
                ancestors: ancestors(v),
            })
            .collect();
        FieldIndex::from_parts(
            "f".into(),
            list,
            HashMap::new(),
            (0..=n).collect(),
            (0..n).map(|d| d % values).collect(),
        )
    }

    /// Walking documents counts each value once per document having it or a value below it, whether the
    /// document's values have values above them in common (counted with marks) or not (counted at the end).
    #[test]
    fn walked_counts_count_shared_ancestors_once() {
        // 0 above 1 and 2; 1 above 3 and 4; 2 above 5; 6 alone.
        let parents: [Option<u32>; 7] = [None, Some(0), Some(0), Some(1), Some(1), Some(2), None];
        let ancestors = |v: u32| {
            let mut out = Vec::new();
            let mut at = parents[v as usize];
            while let Some(p) = at {
                out.push(p);
                at = parents[p as usize];
            }
            out
        };
        let of = |d: u32| -> Vec<u32> {
            match d % 5 {
                0 => vec![3, 4], // share 1 and 0
                1 => vec![3, 5], // share 0
                2 => vec![4],
                3 => vec![3, 1], // a value and the one above it
                _ => vec![4, 6], // nothing in common
            }
        };
        let n = 20_000;
        let mut docs = vec![RoaringBitmap::new(); 7];
        for d in 0..n {
            for v in of(d) {
                docs[v as usize].insert(d);
                for a in ancestors(v) {
                    docs[a as usize].insert(d);
                }
            }
        }
        let values = docs
            .into_iter()
            .enumerate()
            .map(|(v, docs)| FacetValue {
                label: format!("v{v}"),
                label_lower: format!("v{v}"),
                uri: None,
                docs,
                children: (0..7u32).filter(|&c| parents[c as usize] == Some(v as u32)).collect(),
                parents: parents[v].into_iter().collect(),
                ancestors: ancestors(v as u32),
            })
            .collect();
        let mut offsets = vec![0u32];
        let mut direct = Vec::new();
        for d in 0..n {
            direct.extend(of(d));
            offsets.push(direct.len() as u32);
        }
        let field = FieldIndex::from_parts("t".into(), values, HashMap::new(), offsets, direct);
        assert_eq!((0..5).map(|d| field.shares_ancestors(d)).collect::<Vec<_>>(), [true, true, false, true, false]);
        for scope in
            [(0..n).collect::<RoaringBitmap>(), (0..n).step_by(7).collect(), (0..n).filter(|d| d % 5 != 2).collect()]
        {
            let mut tally = super::Tally::new(&field);
            for d in &scope {
                for &v in field.direct_values(d) {
                    tally.add(&field, d, v);
                }
            }
            let expected: Vec<u64> = field.values.iter().map(|v| scope.intersection_len(&v.docs)).collect();
            assert_eq!(tally.finish(&field), expected, "over {} documents", scope.len());
            assert_eq!(count_values(&field, &scope, None), expected);
            let packed = Packed::of(std::slice::from_ref(&field), n as usize).expect("fits");
            assert_eq!(packed.count(&scope, 0..u32::MAX, &[(0, &field)]), [expected]);
        }
    }

    /// Enough work to share with a second thread gives the same counts as counting each job alone, and
    /// those are the right ones: also for the two jobs long enough to be walked in two halves.
    #[test]
    fn shared_counting_gives_every_job_its_own_counts() {
        let n = 600_000;
        let (flat, tree) = (field(n, 3_000, false), field(n, 2_000, true));
        let evens: RoaringBitmap = (0..n).step_by(2).collect();
        let jobs = vec![
            CountJob { field: &flat, scope: Cow::Owned(evens.clone()), only: None, cut: None, selected: &[] },
            CountJob { field: &tree, scope: Cow::Owned(evens.clone()), only: None, cut: None, selected: &[] },
            CountJob {
                field: &flat,
                scope: Cow::Owned((0..n / 3).collect()),
                only: Some(vec![1, 2]),
                cut: None,
                selected: &[],
            },
        ];
        let shared_work = Tuning::DEFAULT.shared_work;
        assert!(jobs.iter().map(CountJob::cost).sum::<f64>() > shared_work, "the work is shared");
        assert!(jobs[..2].iter().all(|j| j.walks() && j.cost() >= shared_work), "walked in halves");
        let shared = count_all(&jobs, None, Tuned::defaults());
        for (job, counts) in jobs.iter().zip(&shared) {
            assert_eq!(counts, &count_values(job.field, &job.scope, job.only.as_deref()));
        }
        let expected = |values: u32, docs: &mut dyn Iterator<Item = u32>| {
            let mut counts = vec![0u64; values as usize];
            docs.for_each(|d| counts[(d % values) as usize] += 1);
            counts
        };
        assert_eq!(shared[0], expected(3_000, &mut (0..n).step_by(2)));
        // Value 0 of the tree is above every other, so it counts every document.
        let mut tree_counts = expected(2_000, &mut (0..n).step_by(2));
        tree_counts[0] = u64::from(n / 2);
        assert_eq!(shared[1], tree_counts);
        assert_eq!(&shared[2][1..3], &expected(3_000, &mut (0..n / 3))[1..3]);
    }

    /// Over every document of the space, the counts (read off the values' bitmaps) are those of walking them.
    #[test]
    fn counts_over_the_whole_space_are_the_walked_counts() {
        let n = 5_000;
        for field in [field(n, 7, false), field(n, 5, true)] {
            let all: RoaringBitmap = (0..n).collect();
            let counts = count_values(&field, &all, None);
            let mut walked = vec![0u64; field.values.len()];
            for d in 0..n {
                for &v in field.direct_values(d) {
                    for &w in field.closure(v) {
                        walked[w as usize] += 1;
                    }
                }
            }
            assert_eq!(counts, walked);
            assert_eq!(counts.iter().max(), Some(&u64::from(if field.flat { n.div_ceil(7) } else { n })));
            // One document fewer is not the whole space: counted by walking or intersecting, still right.
            let most: RoaringBitmap = (1..n).collect();
            // Document 0 has value 0 (in the tree, value 0 is above every document's value).
            walked[0] -= 1;
            assert_eq!(count_values(&field, &most, None), walked);
        }
    }
}
