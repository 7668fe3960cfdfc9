/** Types of build-stamp.js (plain JavaScript so that `npm start` and the `blogpost` bin run it without tsx). */
export declare const BUILD_OUTPUTS: readonly string[];
export declare function computeBuildStamp(root: string, env?: NodeJS.ProcessEnv): string;
export declare function writeBuildStamp(root: string, env?: NodeJS.ProcessEnv): void;
export declare function isBuildPresent(root: string): boolean;
export declare function isBuildFresh(root: string, env?: NodeJS.ProcessEnv): boolean;
export declare function canBuild(root: string): boolean;
export declare function build(root: string): void;
export declare function ensureBuild(root: string, log?: (line: string) => void): void;
