// RUN: mp-opt %s --split-input-file --mp-verify-training-contract --verify-diagnostics

// expected-error @below {{@no_seed has no mp.grad_seed argument}}
func.func @no_seed(%w: tensor<4xf32> {mp.param}) -> (tensor<f32> {mp.loss}, tensor<4xf32> {mp.grad_of = 0 : i64}) {
  %l = tensor.empty() : tensor<f32>
  return %l, %w : tensor<f32>, tensor<4xf32>
}

// -----

func.func @roles(%w: tensor<4xf32> {mp.param},
                 // expected-error @below {{argument #1 of @roles: has no role; mark it mp.param, mp.input, mp.grad_seed or mp.state}}
                 %x: tensor<4xf32>,
                 // expected-error @below {{argument #2 of @roles: has two roles, mp.param and mp.input}}
                 %y: tensor<4xf32> {mp.param, mp.input},
                 %s: tensor<f32> {mp.grad_seed},
                 // expected-error @below {{argument #4 of @roles: a second mp.grad_seed (the first is argument #3)}}
                 %s2: tensor<f32> {mp.grad_seed},
                 // expected-error @below {{argument #5 of @roles: a parameter must be an f32 tensor (its fp32 master copy), not 'tensor<4xf16>'}}
                 // expected-warning @below {{argument #5 of @roles is a parameter without a gradient}}
                 %h: tensor<4xf16> {mp.param})
    -> (tensor<f32> {mp.loss}, tensor<4xf32> {mp.grad_of = 0 : i64}) {
  %l = tensor.empty() : tensor<f32>
  return %l, %w : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @below {{result #1 of @gradients: mp.grad_of = 1 does not name an mp.param argument}}
func.func @gradients(%w: tensor<4xf32> {mp.param}, %x: tensor<4xf32> {mp.input}, %s: tensor<f32> {mp.grad_seed})
    -> (tensor<f32> {mp.loss}, tensor<4xf32> {mp.grad_of = 1 : i64}, tensor<4xf32> {mp.grad_of = 0 : i64}, tensor<4xf32> {mp.grad_of = 0 : i64}) {
  // expected-error @-2 {{result #3 of @gradients: a second gradient of argument #0 (the first is result #2)}}
  %l = tensor.empty() : tensor<f32>
  return %l, %w, %w, %w : tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// expected-error @below {{result #1 of @shapes: the gradient of argument #0 must have its type 'tensor<4xf32>', not 'tensor<5xf32>'}}
func.func @shapes(%w: tensor<4xf32> {mp.param}, %s: tensor<f32> {mp.grad_seed})
    -> (tensor<4xf32> {mp.loss}, tensor<5xf32> {mp.grad_of = 0 : i64}) {
  // expected-error @-2 {{result #0 of @shapes: the loss must be tensor<f32>, not 'tensor<4xf32>'}}
  %g = tensor.empty() : tensor<5xf32>
  return %w, %g : tensor<4xf32>, tensor<5xf32>
}

// -----

// expected-error @below {{@no_loss has no mp.loss result}}
func.func @no_loss(%w: tensor<4xf32> {mp.param}, %s: tensor<f32> {mp.grad_seed})
    -> (tensor<4xf32> {mp.grad_of = 0 : i64}, tensor<4xf32>) {
  // expected-error @-2 {{result #1 of @no_loss: needs exactly one role: mp.loss, mp.grad_of = N, mp.updates = N, mp.found_inf or mp.output}}
  return %w, %w : tensor<4xf32>, tensor<4xf32>
}

// -----

// State arguments (loss scaling, optimizer state) and their updates.
func.func @state(%w: tensor<4xf32> {mp.param}, %s: tensor<f32> {mp.grad_seed},
                 // expected-error @below {{argument #2 of @state: the initial value 0 : i32 must have the element type of the state, 'tensor<f32>'}}
                 %m: tensor<f32> {mp.state = 0 : i32},
                 // expected-error @below {{argument #3 of @state: the loss scale must be tensor<f32>, not 'tensor<2xf32>'}}
                 %scale: tensor<2xf32> {mp.state = 1.0 : f32, mp.loss_scale},
                 // expected-error @below {{argument #4 of @state: state without an mp.updates result: the runtime would never change it}}
                 %t: tensor<i32> {mp.state = 0 : i32},
                 // expected-error @below {{argument #5 of @state: mp.loss_scale marks a state argument; add mp.state = <initial scale>}}
                 %x: tensor<f32> {mp.input, mp.loss_scale})
    -> (tensor<f32> {mp.loss}, tensor<4xf32> {mp.updates = 0 : i64}, tensor<f32> {mp.updates = 2 : i64},
        tensor<2xf32> {mp.updates = 3 : i64}, tensor<f32> {mp.updates = 5 : i64}, tensor<i32> {mp.found_inf},
        tensor<i1> {mp.found_inf}) {
  // expected-error @-12 {{result #4 of @state: mp.updates = 5 does not name an mp.param or mp.state argument}}
  // expected-error @-13 {{result #5 of @state: the overflow flag must be tensor<i1>, not 'tensor<i32>'}}
  // expected-error @-14 {{result #6 of @state: a second mp.found_inf (the first is result #5)}}
  %f = tensor.empty() : tensor<i1>
  %i = tensor.empty() : tensor<i32>
  return %s, %w, %m, %scale, %x, %i, %f : tensor<f32>, tensor<4xf32>, tensor<f32>, tensor<2xf32>, tensor<f32>, tensor<i32>, tensor<i1>
}
