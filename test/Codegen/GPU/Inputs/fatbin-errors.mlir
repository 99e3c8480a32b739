// Errors of mp-gpu-fatbin (test/Codegen/GPU/fatbin.mlir runs this file).

// expected-error @below {{mp-gpu-fatbin: object #1 is not NVVM PTX; run gpu-module-to-binary with format=isa first}}
gpu.binary @cubin [
  #gpu.object<#nvvm.target<chip = "sm_80">, assembly = ".version 8.0\0A.target sm_80\0A.address_size 64\0A">,
  #gpu.object<#nvvm.target<chip = "sm_90a">, bin = "\7FELF">
]

// -----

// expected-error @below {{broken.sm_80.ptx, line 4; error   : Not a name of any known instruction}}
gpu.binary @broken [
  #gpu.object<#nvvm.target<chip = "sm_80">, assembly = ".version 8.0\0A.target sm_80\0A.address_size 64\0A.visible .entry k() { not_an_instruction; }\0A">
]
