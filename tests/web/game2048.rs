//! 2048's DQN learning from an n-tuple network's demonstrations added in the page (the learning
//! bundle's features only).

use crate::{field, message};
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
async fn the_2048_dqn_learns_from_an_ntuple_networks_demonstrations_added_in_the_page() {
    use puzzlelab::agent::ntuple::{NTupleNetwork, Precision, TupleSet};
    use puzzlelab::web::learner::LearnerTrainer;
    use wasm_bindgen_futures::JsFuture;

    // A small demonstrator: an untrained 4-tuple network (it plays its first legal move), as the
    // page hands over the shipped one, unpacked.
    let demonstrator = NTupleNetwork::new(TupleSet::FiveFourTuples).to_bytes(Precision::F32);
    let options = js_sys::JSON::parse(
        r#"{"conv": {"channels": 16, "height": 4, "width": 4, "filters1": 4, "filters2": 4},
            "hidden": [16], "batchSize": 16,
            "demonstrations": {"ntuple": "2048-ntuple.ntuple.gz", "games": 2, "maxTransitions": 300,
                               "pretrainSteps": 20, "weight": 10}}"#,
    )
    .unwrap();
    let trainer = LearnerTrainer::create("2048".into(), options, "cpu".into())
        .await
        .unwrap();
    // Training before the demonstrations are there is refused in words.
    let refused = JsFuture::from(trainer.train_steps(5)).await.unwrap_err();
    assert!(message(refused).contains("addDemonstrations"));
    // A file that is no n-tuple network is refused, and says what it is.
    let wrong = trainer.add_demonstrations(b"not a network").unwrap_err();
    assert!(
        message(wrong).contains("the demonstrator"),
        "refused in words"
    );

    let report = trainer.add_demonstrations(&demonstrator).unwrap();
    assert_eq!(field(&report, "transitions").as_f64(), Some(300.0));
    assert!(field(&report, "seconds").as_f64().unwrap() >= 0.0);
    // Pre-training (20 steps on the demonstrations alone, no game played), then self-play.
    let report = JsFuture::from(trainer.train_steps(20)).await.unwrap();
    assert_eq!(field(&report, "episodesDone").as_f64(), Some(0.0));
    assert!(field(&report, "marginLoss").as_f64().unwrap().is_finite());
    let agreement = field(&report, "demonstrationAgreement").as_f64().unwrap();
    assert!((0.0..=1.0).contains(&agreement), "{agreement}");
    let report = JsFuture::from(trainer.train_steps(30)).await.unwrap();
    assert_eq!(field(&report, "stepsDone").as_f64(), Some(50.0));
    assert!(field(&report, "demonstrationAgreement").as_f64().is_some());
    let setup = trainer.setup().unwrap();
    let demonstrations = field(&setup, "demonstrations");
    assert_eq!(field(&demonstrations, "games").as_f64(), Some(2.0));
}
