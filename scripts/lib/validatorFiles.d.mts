// Types of validatorFiles.mjs, for test/unit/usePrecompiledValidator.ts.
export declare const schemaFile: string;
export declare const ajvOptionsFile: string;
export declare const sourceValidatorFile: string;
export declare const generatedValidatorFile: string;
export declare function generatedValidatorIsCurrent(): boolean;
