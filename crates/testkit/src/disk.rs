//! A disk that fills up, for the tests of what a full disk does to a write: a small tmpfs mounted on a new folder
//! (mounting needs root, as the tests run here), filled to the last byte by a file of its own and freed again.

use std::io::Write;
use std::path::Path;
use std::process::Command;

/// A tmpfs of a few megabytes mounted on a new folder, unmounted when dropped.
pub struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    /// Mounts a tmpfs of `megabytes` on a new folder.
    pub fn mount(megabytes: u32) -> SmallDisk {
        let dir = tempfile::tempdir().expect("a folder to mount the small disk on");
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={megabytes}m"), "tmpfs"])
            .arg(dir.path())
            .status()
            .expect("mount runs");
        assert!(status.success(), "mounting a tmpfs needs root, as the tests run here");
        SmallDisk { dir }
    }

    /// The folder the disk is mounted on.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Fills the disk with a file until no byte more fits.
    pub fn fill(&self) {
        let mut filler = std::fs::File::create(self.path().join("filler")).expect("the filler file is created");
        let block = vec![7u8; 64 * 1024];
        loop {
            match filler.write(&block) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
        let _ = filler.sync_all();
    }

    /// Removes what [`SmallDisk::fill`] wrote.
    pub fn free(&self) {
        std::fs::remove_file(self.path().join("filler")).expect("the filler file is removed");
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(self.dir.path()).status();
    }
}
