import Foundation

/// A seeded synthetic scene: what the simulated cameras look at.
///
/// Coordinates are normalised over the unrotated sensor image, (0, 0) top-left to
/// (1, 1) bottom-right, at zoom 1. Colours are linear RGB in Rec.709/sRGB primaries, as the
/// surfaces look under D65; the camera renders them under its scene illuminant, which
/// shifts the light they send (`CameraResponse`). `radiance` and `rasterize` are D65 views.
/// `reflectance` is relative to a perfect diffuse white; `radiance` multiplies by
/// `luminanceScale`, the luminance of that white in cd/m², so a neutral patch of
/// reflectance ρ has luminance ρ·`luminanceScale`.
///
/// Content, chosen so tests can find things:
/// - a background with a gentle vertical gradient and seeded value-noise texture;
/// - a 24-patch colour chart in the centre (`ColorChart`), a grey ramp above it and a line
///   of glyph strokes below it (`ChartExtras`);
/// - a bright white marker (a light panel, `markerRadiance` × white) at x, y 0.05 ... 0.15
///   (top-left) and a saturated red square at x 0.85 ... 0.95, y 0.05 ... 0.15 (top-right),
///   which reveal rotation and mirroring;
/// - a shaded ball moving along a seeded path in the lower part of the frame, so frames
///   differ over time.
///
/// That is `content` `.chart`; the other kinds (`SceneContent`) replace the still content
/// and the ball, and `timeline` scripts changes over time.
package struct Scene: Sendable {
    package var seed: UInt64
    /// Luminance of a perfect diffuse white, cd/m². 200 is a bright indoor scene.
    package var luminanceScale: Float = 200
    /// What the scene shows (default: the chart described above).
    package var content = SceneContent.chart
    /// Scripted light changes and entering objects.
    package var timeline = SceneTimeline()
    /// Cards in front of the content (codes, pictures), the last one nearest the viewer.
    package var pictures: [ScenePicture] = []

    /// The white marker's radiance relative to diffuse white: it clips at any sane exposure.
    package static let markerRadiance: Float = 4
    /// The red square's reflectance.
    package static let red = SIMD3<Float>(0.85, 0.02, 0.02)
    /// Marker squares, normalised coordinates.
    package static let whiteMarker = (minX: 0.05, maxX: 0.15, minY: 0.05, maxY: 0.15)
    package static let redMarker = (minX: 0.85, maxX: 0.95, minY: 0.05, maxY: 0.15)

    /// The moving ball at one instant.
    package struct Ball: Sendable, Equatable {
        /// Centre, normalised coordinates.
        package var x: Double
        package var y: Double
        /// Radius as a fraction of the image height (the ball stays round at any aspect).
        package var radius: Double
        /// Reflectance at the centre of the disc.
        package var color: SIMD3<Float>
        /// Distance from the camera, metres (defocus and torch light).
        package var distance: Float = Scene.ballDistance
    }

    // The ball's path: x and y oscillate at seeded frequencies and phases.
    private let ballFrequency: SIMD2<Double>
    private let ballPhase: SIMD2<Double>
    private let ballColor: SIMD3<Float>
    // The background texture's random lattices: three octaves, coarse to fine.
    private let texture: (TextureOctave, TextureOctave, TextureOctave)

    package init(seed: UInt64, luminanceScale: Float = 200) {
        self.seed = seed
        self.luminanceScale = luminanceScale
        var rng = SplitMix64(seed: SplitMix64.hash(seed, 0x5343_454E_45))
        ballFrequency = SIMD2(0.12 + 0.12 * rng.nextUnit(), 0.25 + 0.3 * rng.nextUnit())
        ballPhase = SIMD2(2 * Double.pi * rng.nextUnit(), 2 * Double.pi * rng.nextUnit())
        let palette: [SIMD3<Float>] = [
            SIMD3(0.80, 0.30, 0.04), SIMD3(0.05, 0.45, 0.60), SIMD3(0.65, 0.60, 0.05), SIMD3(0.45, 0.08, 0.55),
        ]
        ballColor = palette[Int(rng.next() % UInt64(palette.count))]
        texture = (
            TextureOctave(frequency: 9, amplitude: 0.5, rng: &rng), TextureOctave(frequency: 27, amplitude: 0.3, rng: &rng),
            TextureOctave(frequency: 81, amplitude: 0.2, rng: &rng)
        )
    }

    /// The ball at `time` seconds after the stream started.
    /// Only the chart has it; other scenes get a ball of radius 0, which draws nothing.
    package func ball(at time: Double) -> Ball {
        guard content.hasChartBall else { return Ball(x: 0.5, y: 0.5, radius: 0, color: .zero) }
        let phase = 2 * Double.pi * ballFrequency * time + ballPhase
        return Ball(x: 0.5 + 0.36 * sin(phase.x), y: 0.845 + 0.055 * sin(phase.y), radius: 0.06, color: ballColor)
    }

    /// The ball's shaded reflectance at `distance` from its centre (1 = the rim), lit from
    /// the viewer's side: brightest in the middle, as a matte sphere.
    @inline(__always)
    package static func ballShading(_ color: SIMD3<Float>, distance: Float) -> SIMD3<Float> {
        let cosine = max(0, 1 - distance * distance).squareRoot()
        return color * (0.35 + 0.65 * cosine)
    }

    /// Reflectance of everything but the ball at (x, y).
    package func staticReflectance(x: Double, y: Double) -> SIMD3<Float> {
        for picture in pictures.reversed() {
            if let reflectance = picture.reflectance(x: x, y: y) { return reflectance }
        }
        switch content {
        case .chart: break
        case .flat(let reflectance): return SIMD3(repeating: reflectance)
        case .lowlight: return LowLightRoom.reflectance(x: x, y: y)
        case .hdr: return WindowScene.reflectance(x: x, y: y)
        case .motion: return background(x: x, y: y)
        case .image(let image): return image.sample(x: x, y: y)
        }
        if let extra = ChartExtras.reflectance(x: x, y: y, seed: seed) { return extra }
        if inside(Scene.whiteMarker, x, y) { return SIMD3(repeating: Scene.markerRadiance) }
        if inside(Scene.redMarker, x, y) { return Scene.red }
        if let patch = ColorChart.reflectance(x: x, y: y) { return patch }
        return background(x: x, y: y)
    }

    /// The moving objects besides the chart's ball at `time`: the motion scene's balls and
    /// those the timeline has brought in.
    package func movingObjects(at time: Double) -> [Ball] {
        var balls = content == .motion ? MotionScene.balls(at: time, seed: seed) : []
        if !timeline.isEmpty { balls += timeline.enteredObjects(at: time) }
        return balls
    }

    /// The white's luminance at `time` (cd/m²): `luminanceScale` unless the timeline changed the light.
    package func whiteLuminance(at time: Double) -> Float {
        timeline.isEmpty ? luminanceScale : timeline.whiteLuminance(at: time, base: luminanceScale)
    }

    /// Radiance at (x, y) and `time`, in cd/m² (linear Rec.709 RGB scaled so Y is luminance).
    /// `aspect` (width / height) keeps the balls round.
    package func radiance(x: Double, y: Double, time: Double, aspect: Double = 4.0 / 3.0) -> SIMD3<Float> {
        var reflectance = staticReflectance(x: x, y: y)
        for b in [ball(at: time)] + movingObjects(at: time) where b.radius > 0 {
            let dx = (x - b.x) * aspect
            let dy = y - b.y
            let distance = (dx * dx + dy * dy).squareRoot() / b.radius
            if distance < 1 { reflectance = Scene.ballShading(b.color, distance: Float(distance)) }
        }
        return reflectance * whiteLuminance(at: time)
    }

    /// Rasterises the scene at `time`: `width`×`height` radiance values, row-major, in
    /// cd/m², sampling pixel centres of the central 1/`zoom` of the scene. A slow reference
    /// path for tests and tools; the camera renders from `StaticLayer`.
    package func rasterize(width: Int, height: Int, zoom: Double = 1, time: Double = 0) -> [SIMD3<Float>] {
        var pixels: [SIMD3<Float>] = []
        pixels.reserveCapacity(width * height)
        let aspect = Double(width) / Double(height)
        for row in 0..<height {
            for column in 0..<width {
                let x = 0.5 + ((Double(column) + 0.5) / Double(width) - 0.5) / zoom
                let y = 0.5 + ((Double(row) + 0.5) / Double(height) - 0.5) / zoom
                pixels.append(radiance(x: x, y: y, time: time, aspect: aspect))
            }
        }
        return pixels
    }

    /// The background texture's octaves, coarse to fine, for the static layer's C kernel
    /// (`StaticLayer.fillChart`).
    var textureOctaves: [(frequency: Double, amplitude: Double, stride: Int, values: [Double])] {
        [texture.0, texture.1, texture.2].map { ($0.frequency, $0.amplitude, $0.stride, $0.values) }
    }

    private func inside(_ box: (minX: Double, maxX: Double, minY: Double, maxY: Double), _ x: Double, _ y: Double) -> Bool {
        x >= box.minX && x < box.maxX && y >= box.minY && y < box.maxY
    }

    /// The background: reflectance ~0.3 at the top falling to ~0.2 at the bottom, a slight
    /// warm-to-cool tint from left to right, and ±15 % texture.
    private func background(x: Double, y: Double) -> SIMD3<Float> {
        let base = 0.30 - 0.10 * min(max(y, 0), 1)
        let tint = SIMD3<Double>(1.03 - 0.06 * x, 1, 0.96 + 0.08 * x)
        let texture = 0.85 + 0.30 * textureValue(x: x, y: y)
        let value = tint * (base * texture)
        return SIMD3(Float(value.x), Float(value.y), Float(value.z))
    }

    /// Three octaves of seeded value noise, 0 ... 1.
    private func textureValue(x: Double, y: Double) -> Double {
        texture.0.value(x: x, y: y) + texture.1.value(x: x, y: y) + texture.2.value(x: x, y: y)
    }
}

/// One octave of value noise: random values on a square lattice over the unit square,
/// smoothly interpolated. The lattice is drawn once per seed, so sampling costs four
/// array reads.
private struct TextureOctave: Sendable {
    let frequency: Double
    let amplitude: Double
    /// Lattice points per row (frequency + 2, covering 0 ... 1 and one beyond).
    let stride: Int
    let values: [Double]

    init(frequency: Double, amplitude: Double, rng: inout SplitMix64) {
        self.frequency = frequency
        self.amplitude = amplitude
        stride = Int(frequency) + 2
        values = (0..<(stride * stride)).map { _ in rng.nextUnit() }
    }

    /// The octave's contribution at (x, y), 0 ... `amplitude`.
    func value(x: Double, y: Double) -> Double {
        let px = min(max(x, 0), 1) * frequency
        let py = min(max(y, 0), 1) * frequency
        let ix = min(Int(px), stride - 2)
        let iy = min(Int(py), stride - 2)
        let fx = px - Double(ix)
        let fy = py - Double(iy)
        // Smoothstep weights hide the lattice.
        let sx = fx * fx * (3 - 2 * fx)
        let sy = fy * fy * (3 - 2 * fy)
        let base = iy * stride + ix
        let top = values[base] + (values[base + 1] - values[base]) * sx
        let bottom = values[base + stride] + (values[base + stride + 1] - values[base + stride]) * sx
        return amplitude * (top + (bottom - top) * sy)
    }
}
