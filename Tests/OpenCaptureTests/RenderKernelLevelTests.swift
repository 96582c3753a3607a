import CRenderKernels
import Foundation
import Testing

@Suite("Render kernel builds")
struct RenderKernelLevelTests {
    /// The build the bench reports is the one the CPU's flags allow (the loader's rule):
    /// AVX-512 F/BW/CD/DQ/VL → x86-64-v4, else AVX2 with FMA and BMI2 → x86-64-v3.
    @Test func levelMatchesTheCPU() throws {
        let level = String(cString: oc_render_kernel_level())
        #if arch(x86_64) && os(Linux)
            let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
            let flagsLine = cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") } ?? ""
            let flags = Set(flagsLine.split(separator: " ").map(String.init))
            let v4 = ["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"].allSatisfy(flags.contains)
            let v3 = ["avx2", "fma", "bmi2", "f16c", "movbe"].allSatisfy(flags.contains)
            #expect(level == (v4 && v3 ? "x86-64-v4" : v3 ? "x86-64-v3" : "x86-64"))
        #else
            #expect(["arm64", "baseline"].contains(level))
        #endif
    }
}
