import { describe, expect, it } from "vitest";
import { isServerNavigatedPath, route, RouteParameterError } from "~/lib/route-builder";

const roomId = "0f8e2a4c-1b2d-4e5f-8a9b-0c1d2e3f4a5b";

describe("the route builder", () => {
  it("builds the forms routes of the spec", () => {
    expect(route("forms.index")).toBe("/forms");
    expect(route("forms.create")).toBe("/forms/create");
    expect(route("forms.edit", { id: 12 })).toBe("/forms/12/edit");
    expect(route("forms.preview", { id: "12" })).toBe("/forms/12/preview");
    expect(route("forms.view", { id: 7 })).toBe("/forms/7/view");
    expect(route("submissions.shared", { token: "AbCdEfGhIjKlMnOp_-12" })).toBe("/submissions/shared/AbCdEfGhIjKlMnOp_-12");
  });

  it("builds data-room routes from a 36-character id", () => {
    expect(route("dataroom.show", { dataroomId: roomId })).toBe(`/dataroom/${roomId}`);
    expect(route("dataroom.batch", { dataroomId: roomId, op: "permanent-delete" })).toBe(
      `/dataroom/${roomId}/batch/permanent-delete`,
    );
  });

  it("turns extra parameters into a query string", () => {
    expect(route("forms.index", { page: 2, q: "tax forms" })).toBe("/forms?page=2&q=tax+forms");
  });

  it("throws when a required parameter is missing", () => {
    // @ts-expect-error the id is required by the type as well
    expect(() => route("forms.edit", {})).toThrow(RouteParameterError);
    // @ts-expect-error the id is required by the type as well
    expect(() => route("forms.edit")).toThrow('Missing required parameter "id" for route "forms.edit".');
  });

  it("throws when a parameter does not match its pattern", () => {
    expect(() => route("dataroom.show", { dataroomId: "undefined" })).toThrow(/does not match its pattern/);
    expect(() => route("dataroom.show", { dataroomId: "abc" })).toThrow(RouteParameterError);
    expect(() => route("forms.edit", { id: "../admin" })).toThrow(RouteParameterError);
    expect(() => route("submissions.shared", { token: "short" })).toThrow(RouteParameterError);
  });

  it("treats /dataroom/ paths as server-navigated, and nothing else", () => {
    expect(isServerNavigatedPath(`/dataroom/${roomId}`)).toBe(true);
    expect(isServerNavigatedPath("/datarooms")).toBe(false);
    expect(isServerNavigatedPath("/forms")).toBe(false);
  });
});
