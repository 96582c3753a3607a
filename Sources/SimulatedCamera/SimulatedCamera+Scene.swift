extension SimulatedCamera {
    /// What the camera looks at (default `.chart`). Choosing a scene also sets its default
    /// light (`SceneLighting.defaultIlluminance`); applies from the next frame.
    package var sceneContent: SceneContent {
        get { controls.snapshot(takingPending: false).content }
        set {
            let white = SceneLighting.whiteLuminance(illuminance: SceneLighting.defaultIlluminance(of: newValue))
            controls.modify {
                $0.content = newValue
                $0.luminanceScale = white
            }
        }
    }

    /// The illuminance on the scene in lux: `sceneLuminanceScale` × π (L = E·ρ/π).
    package var sceneIlluminance: Float {
        get { SceneLighting.illuminance(whiteLuminance: sceneLuminanceScale) }
        set { sceneLuminanceScale = SceneLighting.whiteLuminance(illuminance: newValue) }
    }

    /// Cards placed in front of the scene's content (codes, pictures); applies from the next frame.
    package var scenePictures: [ScenePicture] {
        get { controls.snapshot(takingPending: false).pictures }
        set { controls.modify { $0.pictures = newValue } }
    }

    /// Displays of each frame's presentation time as a QR code (`TimeCodeStamp`), drawn
    /// after the ISP; applies from the next frame.
    package var timeCodeStamps: [TimeCodeStamp] {
        get { controls.snapshot(takingPending: false).timeCodes }
        set { controls.modify { $0.timeCodes = newValue } }
    }

    /// Whether each frame's pixel buffer carries the sensor's raw Bayer mosaic (a
    /// `RawMosaic` under `kOpenCaptureRawMosaicKey`); applies from the next frame.
    package var deliversRawMosaic: Bool {
        get { controls.snapshot(takingPending: false).rawMosaic }
        set { controls.modify { $0.rawMosaic = newValue } }
    }

    /// The scripted changes, by seconds since a stream's first frame (each stream replays
    /// them from its start).
    package var sceneTimeline: SceneTimeline {
        get { controls.snapshot(takingPending: false).timeline }
        set { controls.modify { $0.timeline = newValue } }
    }

    /// Adds `change` at `time` to the timeline in one step (safe against concurrent callers).
    package func scheduleSceneChange(_ change: SceneTimeline.Change, at time: Double) {
        controls.modify { $0.timeline.add(change, at: time) }
    }
}
