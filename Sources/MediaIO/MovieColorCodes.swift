import CFFmpeg
import CaptureCore

/// FFmpeg's codes (ISO/IEC 23091-4, what H.264/HEVC's VUI and MP4's 'colr' box carry) for
/// Core Video's colour tag names. A name without a code is "unspecified".
enum MovieColorCodes {
    static func primaries(_ name: String) -> AVColorPrimaries {
        switch name {
        case kCVImageBufferColorPrimaries_ITU_R_709_2: AVCOL_PRI_BT709
        case kCVImageBufferColorPrimaries_P3_D65: AVCOL_PRI_SMPTE432
        case kCVImageBufferColorPrimaries_ITU_R_2020: AVCOL_PRI_BT2020
        case kCVImageBufferColorPrimaries_SMPTE_C: AVCOL_PRI_SMPTE170M
        case kCVImageBufferColorPrimaries_EBU_3213: AVCOL_PRI_BT470BG
        default: AVCOL_PRI_UNSPECIFIED
        }
    }

    static func transfer(_ name: String) -> AVColorTransferCharacteristic {
        switch name {
        case kCVImageBufferTransferFunction_ITU_R_709_2: AVCOL_TRC_BT709
        case kCVImageBufferTransferFunction_ITU_R_2020: AVCOL_TRC_BT2020_10
        case kCVImageBufferTransferFunction_sRGB: AVCOL_TRC_IEC61966_2_1
        case kCVImageBufferTransferFunction_Linear: AVCOL_TRC_LINEAR
        case kCVImageBufferTransferFunction_ITU_R_2100_HLG: AVCOL_TRC_ARIB_STD_B67
        case kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ: AVCOL_TRC_SMPTE2084
        case kCVImageBufferTransferFunction_SMPTE_240M_1995: AVCOL_TRC_SMPTE240M
        default: AVCOL_TRC_UNSPECIFIED
        }
    }

    static func matrix(_ name: String) -> AVColorSpace {
        switch name {
        case kCVImageBufferYCbCrMatrix_ITU_R_709_2: AVCOL_SPC_BT709
        case kCVImageBufferYCbCrMatrix_ITU_R_601_4: AVCOL_SPC_SMPTE170M
        case kCVImageBufferYCbCrMatrix_ITU_R_2020: AVCOL_SPC_BT2020_NCL
        case kCVImageBufferYCbCrMatrix_SMPTE_240M_1995: AVCOL_SPC_SMPTE240M
        default: AVCOL_SPC_UNSPECIFIED
        }
    }
}
