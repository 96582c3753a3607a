import CRenderKernels

extension StaticLayer {
    /// Fills rows `rows` of the default scene (the chart, or the motion scene's background)
    /// with the C kernel `oc_chart_row`, which computes each sample as `fill` does, in the same
    /// order; returns false, filling nothing, for any other scene (cards in front, other
    /// content). Why: per pixel in Swift a 4032x3024 layer took about 20 s of a debug build's
    /// `startRunning()` (issue 30).
    func fillChart(rows: Range<Int>, scene: Scene, optics: Optics) -> Bool {
        guard scene.pictures.isEmpty, scene.content == .chart || scene.content == .motion else { return false }
        fillChartKernel(rows: rows, scene: scene, optics: optics)
        return true
    }

    /// `fillChart` for the chart or motion content, whatever cards are in front (not drawn).
    func fillChartKernel(rows: Range<Int>, scene: Scene, optics: Optics) {
        let falloff = optics.falloff(aspect: Double(width) / Double(height))
        let octaves = scene.textureOctaves
        let patches = ColorChart.reflectance.flatMap { [$0.x, $0.y, $0.z] }
        let ramp = (0..<ChartExtras.rampSteps).map(ChartExtras.rampReflectance)
        let ink = ChartExtras.inkTable(seed: scene.seed)
        let m = color
        var kernel = oc_chart_scene()
        kernel.chart = scene.content == .chart ? 1 : 0
        kernel.width = width
        kernel.height = height
        kernel.zoom = zoom
        kernel.octave_frequency = (octaves[0].frequency, octaves[1].frequency, octaves[2].frequency)
        kernel.octave_amplitude = (octaves[0].amplitude, octaves[1].amplitude, octaves[2].amplitude)
        kernel.octave_stride = (octaves[0].stride, octaves[1].stride, octaves[2].stride)
        kernel.color = (m.row0.x, m.row0.y, m.row0.z, m.row1.x, m.row1.y, m.row1.z, m.row2.x, m.row2.y, m.row2.z)
        kernel.falloff_width = falloff.width
        kernel.falloff_height = falloff.height
        kernel.falloff_f2 = falloff.focalLengthSquared
        kernel.falloff_strength = falloff.strength
        octaves[0].values.withUnsafeBufferPointer { coarse in
            octaves[1].values.withUnsafeBufferPointer { middle in
                octaves[2].values.withUnsafeBufferPointer { fine in
                    patches.withUnsafeBufferPointer { patches in
                        ramp.withUnsafeBufferPointer { ramp in
                            ink.withUnsafeBufferPointer { ink in
                                kernel.octave_values = (coarse.baseAddress, middle.baseAddress, fine.baseAddress)
                                kernel.patches = patches.baseAddress
                                kernel.ramp = ramp.baseAddress
                                kernel.ink = ink.baseAddress
                                // What the columns share across rows, once per call.
                                let columns = UnsafeMutablePointer<Double>.allocate(capacity: 10 * width)
                                defer { columns.deallocate() }
                                oc_chart_columns(&kernel, columns)
                                kernel.columns = UnsafePointer(columns)
                                for y in rows { oc_chart_row(&kernel, y, 0, width, row(y)) }
                            }
                        }
                    }
                }
            }
        }
    }
}
