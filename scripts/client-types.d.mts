export declare const CLIENT_TYPES_FILE: URL;
export declare function renderClientTypes(document: object): Promise<string>;
