import Foundation
import MediaIO
import SimulatedCamera

extension AVCaptureDevice.Simulation {
    /// What a simulated camera looks at (Linux addition).
    ///
    /// Each kind is a reflectance map lit by the scene's illuminance (`sceneIlluminance`);
    /// lights in view are brighter than white. Choosing a kind sets its default light.
    public enum Scene: Sendable, Equatable, CustomStringConvertible {
        /// The default: a 24-patch colour chart, a 12-step grey ramp, a line of glyph strokes,
        /// a white light marker, a red square and a moving ball, on a textured wall (628 lux).
        case chart
        /// A uniform neutral field of this reflectance (0 ... 1): no texture, no objects (628 lux).
        case flat(reflectance: Float)
        /// A dim living room: wall, door, picture, bookshelf, sofa (5 lux).
        case lowlight
        /// A dark room with a window onto a bright sky; the sky is 4000 times the room's
        /// darkest shadow (150 lux on the room).
        case hdr
        /// Three balls crossing a textured wall at different speeds (628 lux).
        case motion
        /// A PNG or JPEG picture used as reflectance (its sRGB values, linearised), stretched
        /// over the frame (628 lux). It is printed on white paper: where it is transparent
        /// the paper shows (alpha mixes the colour with white, in linear light). It is
        /// decoded once, when set, to at most the camera's largest frame or photo size.
        case image(path: String)

        public var description: String {
            switch self {
            case .chart: "chart"
            case .flat(let reflectance): "flat:\(reflectance)"
            case .lowlight: "lowlight"
            case .hdr: "hdr"
            case .motion: "motion"
            case .image(let path): "image:\(path)"
            }
        }
    }

    /// Why a scene could not be set.
    public struct SceneError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The scene in view.
    public var scene: Scene {
        switch camera.sceneContent {
        case .chart: .chart
        case .flat(let reflectance): .flat(reflectance: reflectance)
        case .lowlight: .lowlight
        case .hdr: .hdr
        case .motion: .motion
        case .image(let image): .image(path: image.name)
        }
    }

    /// Chooses the scene and sets its default light; applies from the next frame (a new
    /// scene is rasterised once, so that frame takes longer). Throws for a reflectance
    /// outside 0 ... 1 or a picture that cannot be read: not PNG or JPEG, truncated or
    /// corrupt, or a header claiming more pixels than the file holds (see `PictureDecoder`
    /// for the rules; the memory a picture takes is bounded by the camera's largest size).
    public func setScene(_ scene: Scene) throws(SceneError) {
        switch scene {
        case .chart: camera.sceneContent = .chart
        case .flat(let reflectance):
            guard reflectance.isFinite, (0...1).contains(reflectance) else {
                throw SceneError(description: "a flat scene's reflectance must lie in 0...1, not \(reflectance)")
            }
            camera.sceneContent = .flat(reflectance: reflectance)
        case .lowlight: camera.sceneContent = .lowlight
        case .hdr: camera.sceneContent = .hdr
        case .motion: camera.sceneContent = .motion
        case .image(let path):
            let data: Data
            // Mapped, not read: a big file costs only the pages the decoder touches.
            do { data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) } catch {
                throw SceneError(description: "cannot read '\(path)'")
            }
            let largest = camera.largestImageSize
            let picture: PictureDecoder.Picture
            do {
                picture = try PictureDecoder.decode(data, fitting: PictureDecoder.Size(width: largest.width, height: largest.height))
            } catch {
                throw SceneError(description: "'\(path)': \(error)")
            }
            camera.sceneContent = .image(
                SceneImage(width: picture.width, height: picture.height, sRGB8: picture.samples, name: path))
        }
    }

    /// The illuminance on the scene in lux. A matte white under E lux has luminance E/π
    /// cd/m² (L = E·ρ/π for reflectance ρ), so this is `sceneLuminance` × π. Applies from
    /// the next frame; choosing a scene resets it to that scene's default.
    public var sceneIlluminance: Float {
        get { camera.sceneIlluminance }
        nonmutating set { camera.sceneIlluminance = newValue.isFinite ? max(0, newValue) : 0 }
    }

    /// Scripts a change of the light to `lux` at `seconds` after each stream's first frame:
    /// the first frame whose timestamp is that late or later has it.
    public func scheduleSceneIlluminance(_ lux: Float, atTime seconds: Double) {
        camera.scheduleSceneChange(.illuminance(lux.isFinite ? max(0, lux) : 0), at: seconds)
    }

    /// Scripts a ball rolling in from the left edge at `seconds` after each stream's first
    /// frame: at height `y` (normalised, 0 top), `radius` a fraction of the frame height,
    /// `speed` in frame widths per second, coming to rest with its centre at `restX`.
    /// `reflectance` is its linear Rec.709 colour.
    public func scheduleObjectEntering(
        atTime seconds: Double, y: Double = 0.5, radius: Double = 0.08, speed: Double = 0.5, restX: Double = 0.5,
        reflectance: (red: Float, green: Float, blue: Float) = (0.7, 0.1, 0.1)
    ) {
        let color = SIMD3(reflectance.red, reflectance.green, reflectance.blue)
        camera.scheduleSceneChange(.objectEnters(y: y, radius: max(0, radius), color: color, speed: speed, restX: restX), at: seconds)
    }

    /// Removes every scripted change.
    public func clearSceneTimeline() {
        camera.sceneTimeline = SceneTimeline()
    }
}
