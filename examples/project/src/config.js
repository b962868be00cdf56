export const config = {
  name: "example",
  retries: 3,
  verbose: false,
};
