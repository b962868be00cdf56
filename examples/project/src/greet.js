// Greets people by name.
export function greet(name) {
  return "Hello, " + name + "!";
}

export function farewell(name) {
  return "Goodbye, " + name + ".";
}
