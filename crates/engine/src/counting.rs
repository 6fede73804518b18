//! Facet value counts over the documents that match everything except a field's own selection
//! (drill-sideways): by bitmap sizes over the whole space, by walking the scope's documents or intersecting
//! the values' bitmaps (whichever costs less), by a cut that counts only what a group can show, several
//! groups walking one scope together, and the work shared between two threads.

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::{Range, RangeBounds};
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::sync::OnceLock;

use roaring::RoaringBitmap;
use studio_model::{FacetSetting, HIERARCHICAL};

use super::field_index::FieldIndex;
use super::index::SpaceIndex;
use super::packed::Packed;
use super::tally::Tally;
use super::tuning::{EnginePath, Tuned};
use super::visit::for_each_in;

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
        return walk(field, scope, ..);
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

/// Counts, per value of `field`, the documents of `scope` in `range` having it (directly or through a descendant),
/// by walking them.
fn walk(field: &FieldIndex, scope: &RoaringBitmap, range: impl RangeBounds<u32>) -> Vec<u64> {
    if field.flat {
        // A document's direct values are distinct, and without ancestors each counts once.
        let mut counts = vec![0u64; field.values.len()];
        for_each_in(scope, range, |doc| {
            for &v in field.direct_values(doc) {
                counts[v as usize] += 1;
            }
        });
        counts
    } else {
        let mut tally = Tally::new(field);
        for_each_in(scope, range, |doc| {
            for &v in field.direct_values(doc) {
                tally.add(field, doc, v);
            }
        });
        tally.finish(field)
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
/// `studio bench` at 100k documents among 8 to 4,096, docs/performance-journal.md), about half a step per document of a
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
/// than walking the documents at 1M: docs/performance-journal.md).
pub(crate) fn cut_of(field: &FieldIndex, setting: &FacetSetting) -> Option<Cut> {
    if setting.facet_mode == HIERARCHICAL || field.flat {
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
            Task::Part(i, range) => vec![(*i, walk(jobs[*i].field, &jobs[*i].scope, range.clone()))],
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
pub(crate) mod tests;
