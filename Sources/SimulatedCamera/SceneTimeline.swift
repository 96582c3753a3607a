/// Scripted changes to a scene over time: the light dims or brightens, an object enters.
///
/// Times are seconds since the stream started (a frame's presentation time minus the first
/// frame's), so in virtual time the frame at which an event lands is exact: the first frame
/// whose timestamp is at or after the event's time shows it.
package struct SceneTimeline: Sendable, Equatable {
    /// One scripted change.
    package enum Change: Sendable, Equatable {
        /// The illuminance on the scene becomes this many lux (its white: lux/π cd/m²).
        case illuminance(Float)
        /// A ball rolls in from the left edge at `y` (normalised) with `radius` (fraction of
        /// the image height) and `color` (reflectance) at `speed` (widths per second), and
        /// stops at `restX`, 1.5 m from the camera (`enteredObjectDistance`).
        case objectEnters(y: Double, radius: Double, color: SIMD3<Float>, speed: Double, restX: Double)
    }

    /// A change and when it happens.
    package struct Event: Sendable, Equatable {
        package var time: Double
        package var change: Change
        package init(time: Double, change: Change) {
            self.time = time
            self.change = change
        }
    }

    /// Events in the order of their times (equal times keep the order they were added in).
    package private(set) var events: [Event] = []

    package init() {}

    package var isEmpty: Bool { events.isEmpty }

    /// Adds `change` at `time` seconds.
    package mutating func add(_ change: Change, at time: Double) {
        let index = events.firstIndex { $0.time > time } ?? events.endIndex
        events.insert(Event(time: time, change: change), at: index)
    }

    /// The white's luminance at `time`: that of the last illuminance change due, else `base`.
    package func whiteLuminance(at time: Double, base: Float) -> Float {
        var value = base
        for event in events where event.time <= time {
            if case .illuminance(let lux) = event.change { value = SceneLighting.whiteLuminance(illuminance: lux) }
        }
        return value
    }

    /// The objects that have entered by `time`, where they are then.
    /// How far an entering object is from the camera, metres: in front of every scene's
    /// background.
    package static let enteredObjectDistance: Float = 1.5

    package func enteredObjects(at time: Double) -> [Scene.Ball] {
        var balls: [Scene.Ball] = []
        for event in events where event.time <= time {
            guard case .objectEnters(let y, let radius, let color, let speed, let restX) = event.change else { continue }
            // Starts just outside the left edge, its centre one radius (in widths, at 16:9) out.
            let start = -radius * 9 / 16
            let x = min(restX, start + speed * (time - event.time))
            balls.append(Scene.Ball(x: x, y: y, radius: radius, color: color, distance: SceneTimeline.enteredObjectDistance))
        }
        return balls
    }
}
