import { describe, expect, it } from "vitest";
import { criticalRequirement } from "~/features/access/critical-routes";

describe("permission-critical routes", () => {
  it("workflows and cases need the workflows feature, data rooms need core access", () => {
    expect(criticalRequirement("/workflows")).toEqual({ feature: "workflows" });
    expect(criticalRequirement("/workflows/create")).toEqual({ feature: "workflows" });
    expect(criticalRequirement("/cases/42")).toEqual({ feature: "workflows" });
    expect(criticalRequirement("/datarooms")).toEqual({ permission: "core_access" });
  });

  it("other paths, and look-alikes that only share a prefix, are not critical", () => {
    expect(criticalRequirement("/")).toBeNull();
    expect(criticalRequirement("/settings/plan")).toBeNull();
    expect(criticalRequirement("/workflowsx")).toBeNull();
    expect(criticalRequirement("/casesnotes")).toBeNull();
    expect(criticalRequirement("/dataroom/0f8fad5b-d9cb-469f-a165-70867728950e")).toBeNull();
  });
});
