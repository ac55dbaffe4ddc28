//! Several processes may open a store that does not exist yet at the same
//! moment (`lab run` and a `lab list` polling it, or `chimera serve`): every
//! one must open it, none may fail on the other's migration.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_opens_of_a_new_store_all_succeed() {
    for round in 0..5 {
        let dir = std::env::temp_dir().join(format!("chimera-store-race-{}-{round}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let dir = dir.clone();
                tokio::spawn(
                    async move { chimera_store::open_at(&chimera_store::Location::Dir(dir), 2).await.map(|_| ()) },
                )
            })
            .collect();
        for t in tasks {
            let r = t.await.expect("task");
            assert!(r.is_ok(), "round {round}: {:?}", r.err());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
